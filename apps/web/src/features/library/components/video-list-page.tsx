import type { VideoSummary } from '@/components/media/types.ts';
import { MediaGrid, VideoTile } from '@/components/media/video-tile.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useLibraryList, type LibrarySource } from '../api/library-api.ts';
import { useLoginGuard } from './use-login-guard.ts';

/** A login-only list of videos (spec §2 personal lists): title, grid, empty state, infinite scroll. */
export function VideoListPage<T>({
  title,
  source,
  toVideo,
  loginMessage,
  empty,
  redirectOnError,
}: {
  title: string;
  source: LibrarySource;
  toVideo: (entry: T) => VideoSummary;
  loginMessage: string;
  empty: { title: string; text: string };
  redirectOnError?: boolean;
}) {
  const q = useLibraryList<T>(source);
  useLoginGuard(q.error, loginMessage, redirectOnError);
  const videos = q.data?.pages.flatMap((p) => p.items.map(toVideo)) ?? [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{title}</h1>
      {/* A 401 is on its way home with the login toast (useLoginGuard): no error flash meanwhile. */}
      {q.isPending || isApiError(q.error, 401) ? (
        <Spinner label={`Loading ${title.toLowerCase()}`} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(q.error)}
        </p>
      ) : videos.length === 0 ? (
        <EmptyState kind="video" title={empty.title} text={empty.text} />
      ) : (
        <MediaGrid label={title}>
          {videos.map((v, i) => (
            // History may hold the same video twice.
            <li key={`${v._id}-${i}`} className="w-full">
              <VideoTile video={v} />
            </li>
          ))}
        </MediaGrid>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
