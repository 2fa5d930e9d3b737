export default function PasswordResetRoute() {
  return <h1 className="p-6 text-xl font-semibold">Reset password</h1>;
}
