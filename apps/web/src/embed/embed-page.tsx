import { useEffect, useState } from 'react';
import { VideoPlayer } from '@/features/videos/components/video-player.tsx';
import { parseStartTime } from '@/features/videos/player/prefs.ts';
import type { HeartbeatSend } from '@/features/videos/player/watch-reporter.ts';
import { paths } from '@/config/paths.ts';
import type { Video } from '@/types/api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** `/embed/{id}?start=90` (or `t=`), `autoplay=1` (muted: browsers allow no other autoplay), `loop=1`. */
export function embedOptions(location: Pick<Location, 'pathname' | 'search'>) {
  const params = new URLSearchParams(location.search);
  const videoId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
  return {
    videoId,
    start: parseStartTime(params.get('start') ?? params.get('t')),
    autoplay: params.get('autoplay') === '1',
    loop: params.get('loop') === '1',
  };
}

type State = { kind: 'loading' } | { kind: 'unavailable' } | { kind: 'ready'; video: Video };

/**
 * The video through the public API, anonymously: a framing site's visitor has no session here, so
 * exactly what the public may see plays (unlisted videos too); anything else is "unavailable".
 */
async function loadVideo(videoId: string, signal: AbortSignal): Promise<Video | null> {
  const res = await fetch(`/api/v1/videos/${encodeURIComponent(videoId)}`, { signal, headers: { 'Content-Type': 'application/json' } });
  if (!res.ok) return null;
  const video = ((await res.json()) as { data: { video: Video } }).data.video;
  return video.status === 'ready' && video.videoFile?.url ? video : null;
}

const countView = (videoId: string, position: number) =>
  void fetch(`/api/v1/videos/${encodeURIComponent(videoId)}/views`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ position: Math.floor(position) }),
  }).catch(() => undefined);

/** The framing site's visitor has no session here: reports go anonymously, as 'embed' views. */
const sendHeartbeat: HeartbeatSend = (body, keepalive) =>
  fetch('/api/v1/analytics/heartbeat', { method: 'POST', keepalive, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export function EmbedPage({ location }: { location: Pick<Location, 'pathname' | 'search'> }) {
  const [options] = useState(() => embedOptions(location));
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const ctrl = new AbortController();
    loadVideo(options.videoId, ctrl.signal)
      .then((video) => setState(video ? { kind: 'ready', video } : { kind: 'unavailable' }))
      .catch(() => !ctrl.signal.aborted && setState({ kind: 'unavailable' }));
    return () => ctrl.abort();
  }, [options.videoId]);

  useEffect(() => {
    if (state.kind === 'ready') document.title = state.video.title;
  }, [state]);

  if (state.kind === 'loading') return <main className="h-dvh bg-media" aria-busy="true" aria-label={t('watch.loading')} />;
  if (state.kind === 'unavailable')
    return (
      <main className="flex h-dvh items-center justify-center bg-media p-4 text-center text-on-media">
        <p role="alert" className="text-lg font-medium">
          {t('embed.unavailable')}
        </p>
      </main>
    );
  const { video } = state;
  return (
    <main className="relative h-dvh bg-media">
      <VideoPlayer
        videoId={video._id}
        src={video.videoFile!.url!}
        poster={video.thumbnail?.url}
        storyboardUrl={video.storyboard?.url}
        duration={video.duration}
        title={video.title}
        captions={video.captions}
        // No resume from an earlier visit: an embed starts where its URL says (or at the start).
        startTime={options.start ?? 0}
        autoPlay={options.autoplay}
        muted={options.autoplay || undefined}
        loop={options.loop}
        className="h-full sm:rounded-none!"
        onFirstPlay={(position) => countView(video._id, position)}
        report={{ source: 'embed', send: sendHeartbeat }}
      />
      <a
        href={paths.video.getHref(video._id)}
        target="_blank"
        rel="noopener"
        className="absolute left-0 top-0 max-w-full truncate bg-gradient-to-b from-media/80 to-transparent px-3 pb-6 pt-2 font-medium text-on-media hover:underline focus-visible:outline-2 focus-visible:outline-on-media"
      >
        {video.title}
      </a>
    </main>
  );
}
