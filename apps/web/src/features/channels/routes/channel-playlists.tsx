import { PlaylistTile } from '@/components/media/playlist-tile.tsx';
import { MediaGrid } from '@/components/media/video-tile.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useChannelPlaylists } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';

export default function ChannelPlaylistsRoute() {
  const { channel } = useChannelContext();
  const q = useChannelPlaylists(channel.userName);
  if (q.isPending) return <Spinner label="Loading playlists" />;
  const playlists = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (playlists.length === 0) return <EmptyState kind="playlist" title="No playlist created" text="There are no playlist created on this channel." />;
  return (
    <>
      <MediaGrid label="Playlists">
        {playlists.map((p) => (
          <li key={p._id} className="w-full">
            <PlaylistTile playlist={p} />
          </li>
        ))}
      </MediaGrid>
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </>
  );
}
