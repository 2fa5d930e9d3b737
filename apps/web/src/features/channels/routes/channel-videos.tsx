import { MediaGrid, VideoTile } from '@/components/media/video-tile.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useChannelVideos } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';

export default function ChannelVideosRoute() {
  const { channel } = useChannelContext();
  const q = useChannelVideos(channel.userName);
  if (q.isPending) return <Spinner label="Loading videos" />;
  const videos = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (videos.length === 0) return <EmptyState kind="video" title="No videos uploaded" text="This page has yet to upload a video." />;
  return (
    <>
      <MediaGrid label="Videos">
        {videos.map((v) => (
          <li key={v._id} className="w-full">
            <VideoTile video={v} showOwner={false} />
          </li>
        ))}
      </MediaGrid>
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </>
  );
}
