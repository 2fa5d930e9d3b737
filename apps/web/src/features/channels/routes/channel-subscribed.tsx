/** Placeholder: Web app II fills this screen (issue 6). */
export default function ChannelSubscribedRoute() {
  return <h1 className="p-6 text-xl font-semibold">Subscribed channels</h1>;
}
