export default function HomeRoute() {
  return <h1 className="p-6 text-xl font-semibold">Home</h1>;
}
