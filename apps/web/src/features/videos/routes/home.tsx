import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { VideoCard, VideoGrid } from '@/components/media/video-card.tsx';
import { useHomeVideos } from '../api/videos-api.ts';

export default function HomeRoute() {
  const q = useHomeVideos();
  const videos = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="px-4 py-6">
      <h1 className="sr-only">Trending videos</h1>
      {q.isPending ? (
        <Spinner label="Loading videos" />
      ) : videos.length === 0 ? (
        <EmptyState kind="video" title="No videos found" text={q.isError ? 'Videos could not be loaded. Please try again later.' : 'Nothing has been published yet.'} />
      ) : (
        <>
          <VideoGrid>
            {videos.map((v) => (
              <VideoCard key={v._id} video={v} />
            ))}
          </VideoGrid>
          <InfiniteSentinel hasMore={q.hasNextPage && !q.isError} loading={q.isFetchingNextPage} onVisible={() => void q.fetchNextPage()} />
        </>
      )}
    </div>
  );
}
