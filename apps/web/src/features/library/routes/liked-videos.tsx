/** Placeholder: Web app II fills this screen (issue 6). */
export default function LikedVideosRoute() {
  return <h1 className="p-6 text-xl font-semibold">Liked videos</h1>;
}
