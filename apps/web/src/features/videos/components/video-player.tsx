import clsx from 'clsx';
import { Maximize, Minimize, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { formatDuration } from '@/lib/format.ts';
import { playbackEngine } from '../playback-engine.ts';
import { cueAt, parseStoryboard, shortcutFor, type PlayerAction, type StoryboardCue } from '../storyboard.ts';

interface Level {
  index: number;
  height: number;
}

const positionKey = (id: string) => `glimpse:position:${id}`;
const SEEK_STEP = 10;

/** The last saved position worth resuming from (not the first or last seconds). */
function resumePoint(id: string, duration: number, fromServer?: number): number {
  const saved = Number(localStorage.getItem(positionKey(id)) ?? fromServer ?? 0);
  return saved > 5 && saved < duration - 5 ? saved : 0;
}

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/**
 * HLS player: hls.js loaded on demand (never in the main bundle) where MSE exists, native
 * HLS elsewhere (playback-engine.ts). Quality choice, keyboard shortcuts, storyboard
 * previews on the seek bar, and resume from the last position.
 */
export function VideoPlayer({
  videoId,
  src,
  poster,
  storyboardUrl,
  duration: knownDuration,
  startAt,
  title,
  onFirstPlay,
  onEnded,
}: {
  videoId: string;
  src: string;
  poster?: string | null;
  storyboardUrl?: string | null;
  duration: number;
  startAt?: number;
  title: string;
  onFirstPlay?: (position: number) => void;
  onEnded?: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const hlsRef = useRef<{ currentLevel: number; destroy: () => void } | null>(null);
  const [levels, setLevels] = useState<Level[]>([]);
  const [quality, setQuality] = useState(-1);
  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(knownDuration);
  const [fullscreen, setFullscreen] = useState(false);
  const [cues, setCues] = useState<StoryboardCue[]>([]);
  const [preview, setPreview] = useState<{ time: number; left: number } | null>(null);
  const playedOnce = useRef(false);
  const callbacks = useRef({ onFirstPlay, onEnded });
  useEffect(() => {
    callbacks.current = { onFirstPlay, onEnded };
  });

  // Source: hls.js (MSE) or native HLS.
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    let cancelled = false;
    if (playbackEngine(window, el.canPlayType('application/vnd.apple.mpegurl') !== '') === 'native') {
      el.src = src;
    } else {
      void import('hls.js').then(({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          el.src = src;
          return;
        }
        const hls = new Hls({ capLevelToPlayerSize: true });
        hlsRef.current = hls;
        hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
          setLevels(data.levels.map((l, index) => ({ index, height: l.height })).sort((a, b) => b.height - a.height));
        });
        hls.loadSource(src);
        hls.attachMedia(el);
      });
    }
    return () => {
      cancelled = true;
      hlsRef.current?.destroy();
      hlsRef.current = null;
      el.removeAttribute('src');
    };
  }, [src]);

  // Storyboard cues for the seek-bar previews.
  useEffect(() => {
    if (!storyboardUrl) return;
    const ctrl = new AbortController();
    fetch(storyboardUrl, { signal: ctrl.signal })
      .then((r) => (r.ok ? r.text() : ''))
      .then((text) => setCues(parseStoryboard(text, storyboardUrl)))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [storyboardUrl]);

  const act = (action: PlayerAction) => {
    const el = video.current;
    if (!el) return;
    if (action === 'toggle') void (el.paused ? el.play().catch(() => undefined) : el.pause());
    if (action === 'back') el.currentTime = Math.max(0, el.currentTime - SEEK_STEP);
    if (action === 'forward') el.currentTime = Math.min(el.duration || Infinity, el.currentTime + SEEK_STEP);
    if (action === 'mute') el.muted = !el.muted;
    if (action === 'fullscreen') {
      if (document.fullscreenElement) void document.exitFullscreen?.();
      else void box.current?.requestFullscreen?.();
    }
  };
  const actRef = useRef(act);
  useEffect(() => {
    actRef.current = act;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const action = shortcutFor(e.key);
      // Space on a focused button activates that button instead.
      if (!action || (e.key === ' ' && e.target instanceof HTMLButtonElement)) return;
      e.preventDefault();
      actRef.current(action);
    };
    const onFs = () => setFullscreen(document.fullscreenElement === box.current);
    document.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, []);

  const chooseQuality = (index: number) => {
    setQuality(index);
    if (hlsRef.current) hlsRef.current.currentLevel = index;
  };

  const previewAt = (e: ReactPointerEvent<HTMLInputElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const ratio = Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width));
    setPreview({ time: ratio * (duration || 0), left: e.clientX - rect.left });
  };
  const cue = preview ? cueAt(cues, preview.time) : undefined;

  return (
    <div ref={box} className="group relative aspect-video w-full overflow-hidden bg-black sm:rounded-xl">
      <video
        ref={video}
        poster={poster ?? undefined}
        playsInline
        autoPlay
        aria-label={title}
        className="size-full"
        onClick={() => act('toggle')}
        onLoadedMetadata={(e) => {
          const el = e.currentTarget;
          if (Number.isFinite(el.duration)) setDuration(el.duration);
          const at = resumePoint(videoId, el.duration || knownDuration, startAt);
          if (at) el.currentTime = at;
        }}
        onPlay={() => setPlaying(true)}
        onPause={(e) => {
          setPlaying(false);
          localStorage.setItem(positionKey(videoId), String(Math.floor(e.currentTarget.currentTime)));
        }}
        onPlaying={(e) => {
          if (playedOnce.current) return;
          playedOnce.current = true;
          callbacks.current.onFirstPlay?.(e.currentTarget.currentTime);
        }}
        onTimeUpdate={(e) => {
          const t = e.currentTarget.currentTime;
          setTime(t);
          if (Math.floor(t) % 5 === 0) localStorage.setItem(positionKey(videoId), String(Math.floor(t)));
        }}
        onVolumeChange={(e) => setMuted(e.currentTarget.muted)}
        onEnded={() => {
          localStorage.removeItem(positionKey(videoId));
          callbacks.current.onEnded?.();
        }}
      />
      <div
        className={clsx(
          'absolute inset-x-0 bottom-0 flex flex-col gap-1 bg-gradient-to-t from-black/80 to-transparent px-3 pb-2 pt-8 text-white transition-opacity focus-within:opacity-100 sm:group-hover:opacity-100',
          playing && 'sm:opacity-0',
        )}
      >
        <div className="relative">
          {preview && (
            <div className="pointer-events-none absolute bottom-6 flex -translate-x-1/2 flex-col items-center" style={{ left: preview.left }}>
              {cue && (
                <div
                  className="rounded border-2 border-white bg-black"
                  style={{ width: cue.w, height: cue.h, backgroundImage: `url("${cue.url}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` }}
                />
              )}
              <span className="mt-1 rounded bg-black/80 px-1 text-xs">{formatDuration(preview.time)}</span>
            </div>
          )}
          <input
            type="range"
            aria-label="Seek"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            onChange={(e) => {
              if (video.current) video.current.currentTime = Number(e.target.value);
            }}
            onPointerMove={previewAt}
            onPointerLeave={() => setPreview(null)}
            className="h-1 w-full cursor-pointer accent-red-600"
          />
        </div>
        <div className="flex items-center gap-1">
          <button type="button" aria-label={playing ? 'Pause' : 'Play'} onClick={() => act('toggle')} className="flex size-9 items-center justify-center rounded-full hover:bg-white/20">
            {playing ? <Pause className="size-5" aria-hidden /> : <Play className="size-5" aria-hidden />}
          </button>
          <button type="button" aria-label={muted ? 'Unmute' : 'Mute'} onClick={() => act('mute')} className="flex size-9 items-center justify-center rounded-full hover:bg-white/20">
            {muted ? <VolumeX className="size-5" aria-hidden /> : <Volume2 className="size-5" aria-hidden />}
          </button>
          <span className="text-xs tabular-nums">
            {formatDuration(time)} / {formatDuration(duration)}
          </span>
          <span className="flex-1" />
          <label className="sr-only" htmlFor={`quality-${videoId}`}>
            Quality
          </label>
          <select
            id={`quality-${videoId}`}
            value={quality}
            onChange={(e) => chooseQuality(Number(e.target.value))}
            className={clsx('h-8 rounded bg-black/60 px-1 text-xs', levels.length === 0 && 'hidden')}
          >
            <option value={-1}>Auto</option>
            {levels.map((l) => (
              <option key={l.index} value={l.index}>
                {l.height}p
              </option>
            ))}
          </select>
          <button type="button" aria-label={fullscreen ? 'Exit full screen' : 'Full screen'} onClick={() => act('fullscreen')} className="flex size-9 items-center justify-center rounded-full hover:bg-white/20">
            {fullscreen ? <Minimize className="size-5" aria-hidden /> : <Maximize className="size-5" aria-hidden />}
          </button>
        </div>
      </div>
    </div>
  );
}
