export default function WatchRoute() {
  return <h1 className="p-6 text-xl font-semibold">Watch</h1>;
}
