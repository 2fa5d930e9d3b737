export default function LoginRoute() {
  return <h1 className="p-6 text-xl font-semibold">Log in</h1>;
}
