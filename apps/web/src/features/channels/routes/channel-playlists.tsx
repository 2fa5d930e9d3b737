/** Placeholder: Web app II fills this screen (issue 6). */
export default function ChannelPlaylistsRoute() {
  return <h1 className="p-6 text-xl font-semibold">Channel playlists</h1>;
}
