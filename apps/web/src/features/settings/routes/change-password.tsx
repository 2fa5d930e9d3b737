/** Placeholder: Web app II fills this screen (issue 6). */
export default function ChangePasswordRoute() {
  return <h1 className="p-6 text-xl font-semibold">Change password</h1>;
}
