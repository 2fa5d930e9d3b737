import { MediaGrid } from '@/components/media/media-grid.tsx';
import { VideoCard } from '@/components/media/video-card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useChannelVideos } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function ChannelVideosRoute() {
  const { channel } = useChannelContext();
  const q = useChannelVideos(channel.userName);
  if (q.isPending) return <Spinner label={t('home.loading')} />;
  const videos = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (videos.length === 0) return <EmptyState kind="video" title={t('dashboard.noVideos')} text={t('channel.noVideosText')} />;
  return (
    <>
      <MediaGrid label={t('channel.videos')}>
        {videos.map((v) => (
          <li key={v._id} className="w-full">
            <VideoCard video={v} from="channel" />
          </li>
        ))}
      </MediaGrid>
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </>
  );
}
