import { useQuery, useQueryClient } from '@tanstack/react-query';
import { parseChapters, type Chapter } from '@glimpse/contract/chapters';
import type { TrafficSource } from '@glimpse/contract/heartbeat';
import { playableSource, readyRenditions } from '@glimpse/contract/renditions';
import clsx from 'clsx';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { FederatedThread } from '@/components/media/federated-thread.tsx';
import { VideoCard } from '@/components/media/video-card.tsx';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import type { TimestampLinks } from '@/components/ui/timestamp-text.tsx';
import { paths } from '@/config/paths.ts';
import { playlistQueryOptions } from '@/features/playlists/api/playlists-api.ts';
import { nextInPlaylist, PlaylistPanel } from '@/features/playlists/components/playlist-panel.tsx';
import { SaveToPlaylist } from '@/features/playlists/components/save-to-playlist.tsx';
import { sendHeartbeat, useCountView, useSimilarVideos, useVideo, videoQueryOptions } from '@/features/videos/api/videos-api.ts';
import { VideoDetails } from '@/features/videos/components/video-details.tsx';
import { VideoPlayer } from '@/features/videos/components/video-player.tsx';
import { ShareVideo } from '@/features/videos/components/share-video.tsx';
import { ChapterList } from '@/features/videos/player/chapter-list.tsx';
import { playFrom } from '@/features/videos/player/play-from.ts';
import { parseStartTime, readPrefs, savePrefs } from '@/features/videos/player/prefs.ts';
import { resolveSource, type WatchLinkState } from '@/features/videos/player/watch-reporter.ts';
import { isApiError } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { createSlot, useSlot, type Slot } from '@/lib/slot.ts';
import { useMediaQuery } from '@/lib/use-media-query.ts';
import type { Video } from '@/types/api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

// Below the player (comments) or only for some viewers (the report menu, a takedown's appeal): loaded
// after the page's first render, off its first load (ADR 017, addendum 4).
const CommentSection = lazy(() => import('@/features/comments/components/comment-section.tsx').then((m) => ({ default: m.CommentSection })));
const ReportMenu = lazy(() => import('@/components/moderation/report-dialog.tsx').then((m) => ({ default: m.ReportMenu })));
const TakedownNotice = lazy(() => import('@/components/moderation/takedown-notice.tsx').then((m) => ({ default: m.TakedownNotice })));

/** Tailwind's lg: from here the page has two columns (one below, the player sticking to the top). */
const TWO_COLUMNS = '(min-width: 1024px)';
/** The one-column layout, where the comments fold into a teaser before the similar videos. */
const ONE_COLUMN = '(max-width: 1023.98px)';

interface PlayerLayout {
  source: TrafficSource;
  chapters: readonly Chapter[];
  startTime: number | null;
  theatre: boolean;
  onTheatre: () => void;
  onVideo: (video: HTMLVideoElement | null) => void;
}

function PlayerArea({ video, onEnded, layout }: { video: Video; onEnded: () => void; layout: PlayerLayout }) {
  const countView = useCountView();
  const src = playableSource(video);
  if (video.status === 'failed' || (video.status === 'ready' && !src))
    return <Notice text={t('watch.couldNotProcess')} />;
  if (!src)
    return (
      <Notice
        text={video.progress ? t('watch.stillProcessingPercent', { percent: Math.round(video.progress * 100) }) : t('watch.stillProcessing')}
      />
    );
  return (
    <VideoPlayer
      videoId={video._id}
      src={src}
      revision={readyRenditions(video)}
      poster={video.thumbnail?.url}
      storyboardUrl={video.storyboard?.url}
      duration={video.duration}
      title={video.title}
      captions={video.captions}
      chapters={layout.chapters}
      startTime={layout.startTime}
      theatre={layout.theatre}
      onTheatre={layout.onTheatre}
      onVideo={layout.onVideo}
      // Theatre: as wide as the page, but the whole frame stays on screen.
      className={clsx(layout.theatre && 'lg:max-h-[calc(100vh-7rem)]')}
      onFirstPlay={(position) => void countView(video._id, position)}
      onEnded={onEnded}
      report={{ source: layout.source, send: sendHeartbeat }}
    />
  );
}

function Notice({ text }: { text: string }) {
  return (
    <div className="flex aspect-video w-full items-center justify-center bg-media p-6 text-center text-on-media sm:rounded-xl" role="status">
      {text}
    </div>
  );
}

function SimilarVideos({ videoId }: { videoId: string }) {
  const similar = useSimilarVideos(videoId);
  if (!similar.data?.length) return null;
  return (
    <section aria-labelledby="similar-title">
      <h2 id="similar-title" className="mb-3 font-semibold">
        {t('watch.similar')}
      </h2>
      <ul className="flex flex-col gap-3">
        {similar.data.map((v) => (
          <li key={v._id}>
            <VideoCard video={v} layout="compact" headingLevel={3} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Chapters({ chapters, player }: { chapters: readonly Chapter[]; player: Slot<HTMLVideoElement> }) {
  const video = useSlot(player);
  return <ChapterList chapters={chapters} video={video} />;
}

function Watch({ videoId, listId, startTime }: { videoId: string; listId: string | null; startTime: number | null }) {
  const navigate = useNavigate();
  const location = useLocation();
  // Fixed for this page: the page that led here (router state), or the referrer of the landing page ('default' key).
  const [source] = useState(() =>
    resolveSource({ state: location.state, referrer: document.referrer, host: window.location.host, landed: location.key === 'default' }),
  );
  const video = useVideo(videoId);
  useDocumentTitle(video.data?.title);
  const playlist = useQuery({ ...playlistQueryOptions(listId ?? ''), enabled: listId !== null });
  const inPlaylist = playlist.data ? playlist.data.videos.some((v) => v._id === videoId) : null;
  const wide = useMediaQuery(TWO_COLUMNS);
  const narrow = useMediaQuery(ONE_COLUMN);
  const me = useStoredUser();
  const queryClient = useQueryClient();
  const [theatre, setTheatre] = useState(() => readPrefs().theatre);
  // Not state: the player reports its element after the first render, and a state change would render
  // the whole page again for the chapter list, the one part that needs it (ADR 017, addendum 9).
  const [player] = useState(() => createSlot<HTMLVideoElement>());
  const description = video.data?.description ?? '';
  const duration = video.data?.duration ?? 0;
  const chapters = useMemo(() => parseChapters(description, duration), [description, duration]);

  // The moderators took it down (410): the plain video page says so rather than going home.
  const removed = isApiError(video.error, 410);
  // Spec §8: a failed load goes to the plain video page when a list was given, else home;
  // a playlist not containing the video (or failing to load) goes to the plain video page.
  useEffect(() => {
    if (video.isError && !(removed && !listId)) {
      console.warn('Loading the video failed', video.error);
      navigate(listId ? paths.video.getHref(videoId) : paths.home.getHref(), { replace: true });
    } else if (listId && (playlist.isError || inPlaylist === false)) {
      navigate(paths.video.getHref(videoId), { replace: true });
    }
  }, [video.isError, video.error, removed, playlist.isError, inPlaylist, listId, videoId, navigate]);

  if (video.isPending) return <Spinner label={t('watch.loading')} className="py-24" />;
  if (removed && !listId) return <NotAvailable title={t('watch.removedTitle')} heading={t('watch.removedHeading')} text={t('watch.removedText')} />;
  if (!video.data) return null;

  // Timestamps in the description and comments: links to this page at that time, played in place.
  const here = paths.video.getHref(videoId, listId ?? undefined);
  const timestamps: TimestampLinks = {
    duration: video.data.duration,
    href: (seconds) => `${here}${here.includes('?') ? '&' : '?'}t=${seconds}`,
    onSeek: (seconds) => {
      const element = player.get();
      if (element) playFrom(element, seconds);
    },
  };

  const onEnded = () => {
    const next = playlist.data ? nextInPlaylist(playlist.data, videoId) : null;
    if (next && listId) navigate(paths.video.getHref(next._id, listId), { state: { source: 'playlist' } satisfies WatchLinkState });
  };

  const panel = playlist.data && inPlaylist ? <PlaylistPanel playlist={playlist.data} videoId={videoId} /> : null;
  const layout: PlayerLayout = {
    source,
    chapters,
    startTime,
    theatre,
    onVideo: player.set,
    onTheatre: () =>
      setTheatre((on) => {
        savePrefs({ theatre: !on });
        return !on;
      }),
  };
  // One column below 1024 px (the player sticks to the top while the page scrolls); from there a
  // grid: the player beside the side column, or in theatre mode across both columns above them.
  return (
    <div className="mx-auto flex max-w-[1700px] flex-col gap-6 py-0 sm:px-4 sm:py-4 lg:grid lg:grid-cols-[minmax(0,1fr)_380px] lg:grid-rows-[auto_1fr] lg:gap-x-6 lg:gap-y-0">
      <div className={clsx('sticky top-14 z-20 -mb-6 lg:static lg:col-start-1 lg:row-start-1 lg:mb-0', theatre && 'lg:col-span-2 lg:mb-6')}>
        <PlayerArea video={video.data} onEnded={onEnded} layout={layout} />
      </div>
      <div className="min-w-0 px-3 sm:px-0 lg:col-start-1 lg:row-start-2">
        {video.data.takedown && (
          <Suspense fallback={null}>
            <TakedownNotice
              kind="video"
              id={videoId}
              notice={video.data.takedown}
              onAppealed={() => void queryClient.invalidateQueries({ queryKey: videoQueryOptions(videoId).queryKey })}
            />
          </Suspense>
        )}
        <VideoDetails
          video={video.data}
          timestamps={timestamps}
          actions={
            <>
              <ShareVideo videoId={videoId} title={video.data.title} currentTime={() => player.get()?.currentTime ?? 0} />
              <SaveToPlaylist videoId={videoId} />
              {me && me.userId !== video.data.owner._id && (
                <Suspense fallback={null}>
                  <ReportMenu kind="video" id={videoId} label={t('watch.moreActions')} />
                </Suspense>
              )}
            </>
          }
        />
        <Chapters chapters={chapters} player={player} />
        {/* One column: the playlist comes right under the video, not after every comment. */}
        {!wide && panel && <div className="mt-4">{panel}</div>}
        <div className="below-fold">
          <Suspense fallback={<Spinner label={t('comments.heading')} className="py-8" />}>
            <CommentSection
              entityType="video"
              entityId={videoId}
              count={video.data.noOfComments ?? 0}
              channel={video.data.owner}
              commentsEnabled={video.data.commentsEnabled !== false}
              folded={narrow}
              timestamps={timestamps}
            />
          </Suspense>
          <FederatedThread videoId={videoId} ownerId={video.data.owner._id} />
        </div>
      </div>
      <aside
        className={clsx('below-fold flex w-full shrink-0 flex-col gap-6 px-3 sm:px-0 lg:col-start-2', theatre ? 'lg:row-start-2' : 'lg:row-span-2 lg:row-start-1')}
        aria-label={t('watch.upNext')}
      >
        {wide && panel}
        <SimilarVideos videoId={videoId} />
      </aside>
    </div>
  );
}

export default function WatchRoute() {
  const videoId = useParams().videoId ?? '';
  const [params] = useSearchParams();
  const listId = params.get('listId');
  const startTime = parseStartTime(params.get('t'));
  // A new video is a new page: fresh player, comments and counters.
  return <Watch key={`${videoId}|${listId ?? ''}`} videoId={videoId} listId={listId} startTime={startTime} />;
}
