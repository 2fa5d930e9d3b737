export default function EmailVerificationRoute() {
  return <h1 className="p-6 text-xl font-semibold">Email verification</h1>;
}
