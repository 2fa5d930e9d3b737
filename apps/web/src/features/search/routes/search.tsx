export default function SearchRoute() {
  return <h1 className="p-6 text-xl font-semibold">Search</h1>;
}
