import { PlaylistTile } from '@/components/media/playlist-tile.tsx';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useChannelPlaylists } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function ChannelPlaylistsRoute() {
  const { channel } = useChannelContext();
  const q = useChannelPlaylists(channel.userName);
  if (q.isPending) return <Spinner label={t('playlist.loading')} />;
  const playlists = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (playlists.length === 0) return <EmptyState kind="playlist" title={t('channel.noPlaylists')} text={t('channel.noPlaylistsText')} />;
  return (
    <>
      <MediaGrid label={t('nav.playlists')}>
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
