/** Placeholder: Web app II fills this screen (issue 6). */
export default function HistoryRoute() {
  return <h1 className="p-6 text-xl font-semibold">Watch history</h1>;
}
