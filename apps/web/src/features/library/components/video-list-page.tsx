import type { TrafficSource } from '@glimpse/contract';
import type { VideoSummary } from '@/components/media/types.ts';
import { MediaGrid } from '@/components/media/media-grid.tsx';
import { VideoCard } from '@/components/media/video-card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { SessionEnded, SignInPage, type SignInCopy } from '@/components/ui/sign-in-prompt.tsx';
import { session, useStoredUser } from '@/lib/session.ts';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useLibraryList, type LibrarySource } from '../api/library-api.ts';
import { useLoginGuard } from '@/lib/use-login-guard.ts';
import { t } from '@/lib/i18n/i18n.ts';

interface ListProps<T> {
  title: string;
  source: LibrarySource;
  toVideo: (entry: T) => VideoSummary;
  loginMessage: string;
  empty: { title: string; text: string };
  /** What an anonymous visitor sees instead of the list. */
  signIn: SignInCopy;
  redirectOnError?: boolean;
  /** The traffic source its links report (analytics), when it is one. */
  from?: TrafficSource;
}

/** A login-only list of videos (spec §2 personal lists): title, grid, empty state, infinite scroll. */
export function VideoListPage<T>(props: ListProps<T>) {
  const user = useStoredUser();
  // Without an account: a sign-in prompt (issue #17, ADR 020); a session the server ended: spec §6's toast.
  if (!user) return session.wasEnded() ? <SessionEnded message={props.loginMessage} /> : <SignInPage heading={props.title} copy={props.signIn} />;
  return <VideoList {...props} />;
}

function VideoList<T>({ title, source, toVideo, loginMessage, empty, redirectOnError, from }: ListProps<T>) {
  const q = useLibraryList<T>(source);
  useLoginGuard(q.error, loginMessage, redirectOnError);
  const videos = q.data?.pages.flatMap((p) => p.items.map(toVideo)) ?? [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{title}</h1>
      {/* A 401 is on its way home with the login toast (useLoginGuard): no error flash meanwhile. */}
      {q.isPending || isApiError(q.error, 401) ? (
        <Spinner label={t('library.loadingList', { what: title.toLowerCase() })} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(q.error)}
        </p>
      ) : videos.length === 0 ? (
        <EmptyState kind="video" title={empty.title} text={empty.text} />
      ) : (
        <MediaGrid label={title}>
          {videos.map((v, i) => (
            // History may hold the same video twice.
            <li key={`${v._id}-${i}`} className="w-full">
              <VideoCard video={v} from={from} />
            </li>
          ))}
        </MediaGrid>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
