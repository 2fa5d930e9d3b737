/** Placeholder: Web app II fills this screen (issue 6). */
export default function TweetDetailRoute() {
  return <h1 className="p-6 text-xl font-semibold">Tweet</h1>;
}
