import type { Live } from '@glimpse/contract';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { t } from '@/lib/i18n/i18n.ts';
import { liveHlsConfig } from '../live-latency.ts';

/** How far behind the live edge "jump to live" lands, in seconds (a segment and a half). */
const EDGE_MARGIN = 3;

interface HlsLike {
  destroy(): void;
  liveSyncPosition: number | null;
}

/**
 * A live's HLS: hls.js (lazy-loaded) where Media Source Extensions exist, else the browser's own
 * player. The native controls seek inside the live window (DVR); "Jump to live" goes back to the edge.
 */
export function LivePlayer({ src, title, latencyMode, poster }: { src: string; title: string; latencyMode: Live['latencyMode']; poster?: string | null }) {
  const video = useRef<HTMLVideoElement>(null);
  const hls = useRef<HlsLike | null>(null);
  const [behind, setBehind] = useState(false);

  useEffect(() => {
    const media = video.current;
    if (!media) return;
    let cancelled = false;
    void import('hls.js').then(({ default: Hls }) => {
      if (cancelled) return;
      if (!Hls.isSupported()) {
        media.src = src;
        return;
      }
      const player = new Hls(liveHlsConfig[latencyMode]);
      hls.current = player;
      player.loadSource(src);
      player.attachMedia(media);
    });
    const onTime = () => {
      const end = media.seekable.length ? media.seekable.end(media.seekable.length - 1) : media.currentTime;
      setBehind(end - media.currentTime > EDGE_MARGIN * 3);
    };
    media.addEventListener('timeupdate', onTime);
    return () => {
      cancelled = true;
      media.removeEventListener('timeupdate', onTime);
      hls.current?.destroy();
      hls.current = null;
      media.removeAttribute('src');
    };
  }, [src, latencyMode]);

  const jumpToLive = () => {
    const media = video.current;
    if (!media) return;
    const edge = hls.current?.liveSyncPosition ?? (media.seekable.length ? media.seekable.end(media.seekable.length - 1) - EDGE_MARGIN : null);
    if (edge !== null) media.currentTime = edge;
    void media.play().catch(() => undefined);
  };

  return (
    <div className="flex flex-col gap-2">
      {/* Muted so that it may start by itself (autoplay rules); the viewer unmutes. */}
      <video ref={video} className="aspect-video w-full rounded-xl bg-black" controls autoPlay muted playsInline aria-label={title} poster={poster ?? undefined} />
      <Button variant="secondary" size="sm" className="self-end" dimmed={!behind} onClick={jumpToLive}>
        {t('live.jumpToLive')}
      </Button>
    </div>
  );
}
