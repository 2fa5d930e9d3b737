export default function RegisterRoute() {
  return <h1 className="p-6 text-xl font-semibold">Register</h1>;
}
