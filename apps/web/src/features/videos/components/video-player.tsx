import type { VideoCaption } from '@glimpse/contract';
import { HLS_TYPE } from '@glimpse/contract/first-paint';
import { chapterAt, type Chapter } from '@glimpse/contract/chapters';
import type { TrafficSource } from '@glimpse/contract/heartbeat';
import clsx from 'clsx';
import { Keyboard, Maximize, Minimize, Pause, Play, RectangleHorizontal } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { formatDuration } from '@/lib/format.ts';
import { storage } from '@/lib/storage.ts';
import { canTakeOver, playbackEngine, variantHeights } from '../playback-engine.ts';
import { CaptionsToggle, toggleCaptions } from '../player/captions-toggle.tsx';
import { CaptionsMenu, CaptionTracks } from '../player/captions-menu.tsx';
import { ControlButton, PLAYER_SELECT } from '../player/control-button.tsx';
import { PipButton, togglePictureInPicture } from '../player/pip-button.tsx';
import { readPrefs, savePrefs, stepSpeed } from '../player/prefs.ts';
import { SeekBar } from '../player/seek-bar.tsx';
import { isArrow, isTyping, percentFor, shortcutFor, type PlayerAction } from '../player/shortcuts.ts';
import { releaseShellVideo, shellVideoFor } from '../player/shell-video.ts';
import { ShortcutsHelp } from '../player/shortcuts-help.tsx';
import { SpeedMenu } from '../player/speed-menu.tsx';
import { VolumeControl } from '../player/volume-control.tsx';
import { attachWatchReporter, createWatchReporter, newSessionId, type HeartbeatSend } from '../player/watch-reporter.ts';
import { parseStoryboard, type StoryboardCue } from '../storyboard.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** What the player needs of hls.js (typed here so the page loads hls.js only when it plays). */
interface HlsHandle {
  currentLevel: number;
  readonly levels: readonly { height: number }[];
  destroy: () => void;
}

/** The `<video>` events the player follows (handlers in VideoPlayer). */
const MEDIA_EVENTS = ['click', 'loadedmetadata', 'play', 'pause', 'playing', 'timeupdate', 'volumechange', 'ratechange', 'ended'] as const;
type MediaEventName = (typeof MEDIA_EVENTS)[number];

/** The quality menu's value for "Auto". */
const AUTO = -1;
/** The level playing a height, or hls.js's own choice. */
const levelOf = (hls: HlsHandle, height: number) => (height === AUTO ? -1 : hls.levels.findIndex((l) => l.height === height));

const positionKey = (id: string) => `glimpse:position:${id}`;
const SEEK_STEP = 10;
const ARROW_STEP = 5;
const VOLUME_STEP = 0.05;

/** The last saved position worth resuming from (not the first or last seconds). */
function resumePoint(id: string, duration: number, fromServer?: number): number {
  const saved = Number(storage.get(positionKey(id)) ?? fromServer ?? 0);
  return saved > 5 && saved < duration - 5 ? saved : 0;
}

/**
 * HLS player: hls.js loaded on demand (never in the main bundle) where MSE exists, native
 * HLS elsewhere (playback-engine.ts). Quality and speed choice, volume, captions, PiP,
 * theatre mode, keyboard shortcuts (`?` lists them), storyboard previews and chapter
 * segments on the seek bar, resume from the last position or a `?t=` start time.
 */
export function VideoPlayer({
  videoId,
  src,
  revision = 0,
  poster,
  storyboardUrl,
  duration: knownDuration,
  startAt,
  startTime,
  title,
  chapters = [],
  theatre,
  onTheatre,
  onVideo,
  className,
  onFirstPlay,
  onEnded,
  captions = [],
  autoPlay = true,
  loop = false,
  muted: startMuted,
  report,
}: {
  videoId: string;
  src: string;
  /** Changes when the master playlist does (a new rung is ready, ADR 019): it is loaded again, playback going on where it was. */
  revision?: number;
  poster?: string | null;
  storyboardUrl?: string | null;
  duration: number;
  /** The server's saved position (resume). */
  startAt?: number;
  /** An explicit start (the page's `?t=`): wins over resuming. */
  startTime?: number | null;
  title: string;
  chapters?: readonly Chapter[];
  /** Theatre mode is the page's layout: shown as a toggle only when the page offers it. */
  theatre?: boolean;
  onTheatre?: () => void;
  /** The <video> element, for controls the page renders elsewhere (the chapter list). */
  onVideo?: (video: HTMLVideoElement | null) => void;
  className?: string;
  onFirstPlay?: (position: number) => void;
  onEnded?: () => void;
  /** Subtitle tracks (WebVTT): a <track> each, and the Subtitles/CC menu. */
  captions?: VideoCaption[];
  autoPlay?: boolean;
  loop?: boolean;
  /** Start muted whatever the remembered preference (an embed's autoplay: browsers only autoplay muted). */
  muted?: boolean;
  /** Analytics: where the viewer came from and how the played seconds reach the server (watch-reporter.ts). */
  report?: { source: TrafficSource; send: HeartbeatSend };
}) {
  const box = useRef<HTMLDivElement>(null);
  const slot = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  // The browser's own HLS first where it has one; hls.js once a quality is chosen by hand there.
  const [engine, setEngine] = useState(() => playbackEngine(document.createElement('video').canPlayType(HLS_TYPE) !== ''));
  // The element is the player's own, not React's: the watch page's shell may have started it at HTML
  // time (shell-video.ts), and it is adopted as it is, playing or buffered.
  const [el] = useState(() => (engine === 'native' ? shellVideoFor(src) : null) ?? document.createElement('video'));
  const [adopted] = useState(() => el.isConnected);
  // Changed through the ref only (the element is the player's own DOM node, not state).
  const video = useRef(el);
  const hlsRef = useRef<HlsHandle | null>(null);
  const [prefs] = useState(readPrefs);
  /** Heights on offer, highest first. */
  const [levels, setLevels] = useState<number[]>([]);
  /** The chosen height, or AUTO. */
  const [quality, setQuality] = useState(AUTO);
  const qualityRef = useRef(AUTO);
  // An adopted shell video may be playing already: the controls start as it is, so that catching up
  // in the commit (below) changes no state and renders nothing again in the first render's task.
  const [playing, setPlaying] = useState(() => adopted && !el.paused);
  const [muted, setMuted] = useState(startMuted ?? prefs.muted);
  const [volume, setVolume] = useState(prefs.volume);
  const [speed, setSpeed] = useState(prefs.speed);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(() => (adopted && Number.isFinite(el.duration) ? el.duration : knownDuration));
  const [fullscreen, setFullscreen] = useState(false);
  const [cues, setCues] = useState<StoryboardCue[]>([]);
  const [helpOpen, setHelpOpen] = useState(false);
  const playedOnce = useRef(false);
  // Where playback was when the source was loaded again for the same video (a new rung): carried over.
  const carry = useRef<{ videoId: string; time: number; playing: boolean } | null>(null);
  // One viewing session per player mount.
  const [sessionId] = useState(newSessionId);
  const callbacks = useRef({ onFirstPlay, onEnded, onVideo });
  useEffect(() => {
    callbacks.current = { onFirstPlay, onEnded, onVideo };
  });

  // Layout effects, in the commit: the element is labelled and muted or not before anything plays
  // it (an adopted shell video is played in the layout effect below).
  useLayoutEffect(() => {
    // The remembered volume and speed (the element keeps defaultPlaybackRate across loads).
    video.current.volume = prefs.volume;
    video.current.muted = startMuted ?? prefs.muted;
    video.current.defaultPlaybackRate = prefs.speed;
    video.current.playbackRate = prefs.speed;
  }, [el, prefs, startMuted]);
  // After the commit, not in it: whatever the page does with the element (it renders its chapter
  // list again) is not added to the first render's task (ADR 017, addendum 9).
  useEffect(() => {
    callbacks.current.onVideo?.(el);
    return () => callbacks.current.onVideo?.(null);
  }, [el]);

  const reportSource = report?.source;
  const reportSend = report?.send;
  useEffect(() => {
    if (!reportSource || !reportSend) return;
    return attachWatchReporter(el, createWatchReporter({ videoId, sessionId, source: reportSource, send: reportSend }));
  }, [el, videoId, sessionId, reportSource, reportSend]);

  useLayoutEffect(() => {
    video.current.poster = poster ?? '';
    video.current.playsInline = true;
    video.current.autoplay = autoPlay;
    video.current.loop = loop;
    video.current.className = 'size-full';
    video.current.setAttribute('aria-label', title);
  }, [el, poster, autoPlay, loop, title]);

  // Source: native HLS (its renditions read from the master playlist for the menu) or hls.js.
  useEffect(() => {
    const media = video.current;
    let cancelled = false;
    if (engine === 'native') {
      // The adopted shell video plays this source already.
      if (!media.querySelector('source')) media.src = src;
      if (canTakeOver(window)) {
        fetch(src)
          .then((r) => (r.ok ? r.text() : ''))
          .then((master) => !cancelled && setLevels(variantHeights(master)))
          .catch(() => undefined);
      }
    } else {
      // The full build: with the light one a quality chosen by hand stalled playback (ADR 017).
      void import('hls.js').then(({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          media.src = src;
          return;
        }
        // Captions come as <track> elements (CaptionTracks): hls.js leaves the manifest's subtitle renditions to native players.
        const hls = new Hls({ capLevelToPlayerSize: true, renderTextTracksNatively: false });
        hlsRef.current = hls;
        hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
          setLevels([...new Set(data.levels.map((l) => l.height))].sort((a, b) => b - a));
          // Taking over from the native player: straight at the height the viewer chose.
          if (qualityRef.current !== AUTO) hls.currentLevel = levelOf(hls, qualityRef.current);
        });
        hls.loadSource(src);
        hls.attachMedia(media);
      });
    }
    return () => {
      cancelled = true;
      carry.current = { videoId, time: media.currentTime, playing: !media.paused };
      hlsRef.current?.destroy();
      hlsRef.current = null;
      media.querySelectorAll('source').forEach((source) => source.remove());
      media.removeAttribute('src');
    };
  }, [el, src, revision, videoId, engine]);

  // How far the captions rise while the control bar shows (index.css, .player-captions): from the
  // video's bottom to the top of the seek slider, measured whenever the bar changes size.
  useEffect(() => {
    const controls = bar.current;
    const root = box.current;
    if (!controls || !root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const seek = controls.querySelector('input[type="range"]') ?? controls;
      const lift = Math.max(0, Math.round(root.getBoundingClientRect().bottom - seek.getBoundingClientRect().top));
      root.style.setProperty('--player-bar', `${lift}px`);
    });
    observer.observe(controls);
    return () => observer.disconnect();
  }, []);

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

  const seekTo = (t: number) => {
    video.current.currentTime = Math.min(Math.max(0, t), video.current.duration || duration || Infinity);
  };
  const changeVolume = (v: number) => {
    video.current.volume = Math.min(1, Math.max(0, v));
    video.current.muted = video.current.volume === 0;
  };
  const changeSpeed = (s: number) => {
    video.current.defaultPlaybackRate = s;
    video.current.playbackRate = s;
  };

  // The overlay is a page dialog: out of full screen first, or it would open unseen.
  const openHelp = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    setHelpOpen(true);
  };
  const act = (action: PlayerAction) => {
    switch (action) {
      case 'toggle':
        return void (video.current.paused ? video.current.play().catch(() => undefined) : video.current.pause());
      case 'back':
      case 'forward':
      case 'stepBack':
      case 'stepForward': {
        const step = action === 'back' || action === 'forward' ? SEEK_STEP : ARROW_STEP;
        return seekTo(video.current.currentTime + (action === 'back' || action === 'stepBack' ? -step : step));
      }
      case 'volumeUp':
        return changeVolume((video.current.muted ? 0 : video.current.volume) + VOLUME_STEP);
      case 'volumeDown':
        return changeVolume((video.current.muted ? 0 : video.current.volume) - VOLUME_STEP);
      case 'mute':
        video.current.muted = !video.current.muted;
        if (!video.current.muted && video.current.volume === 0) video.current.volume = VOLUME_STEP * 10;
        return;
      case 'slower':
      case 'faster':
        return changeSpeed(stepSpeed(video.current.playbackRate, action === 'faster' ? 1 : -1));
      case 'captions':
        return toggleCaptions(el);
      case 'pip':
        return togglePictureInPicture(el);
      case 'theatre':
        return onTheatre?.();
      case 'help':
        return openHelp();
      case 'fullscreen':
        if (document.fullscreenElement) void document.exitFullscreen?.();
        else void box.current?.requestFullscreen?.();
    }
  };
  const actRef = useRef({ act, seekTo, duration });
  useEffect(() => {
    actRef.current = { act, seekTo, duration };
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const target = e.target instanceof Element ? e.target : null;
      // A dialog (this help, Save to playlist...) keeps its keys.
      if (target?.closest('[role="dialog"]')) return;
      const percent = percentFor(e.key);
      const action = percent === null ? shortcutFor(e.key) : null;
      if (percent === null && !action) return;
      // Space on a focused control activates that control instead.
      if (e.key === ' ' && target?.closest('button, a, summary, input')) return;
      // Arrows move sliders and scroll lists: the player's only from the page itself or a player button.
      const free = !target || target === document.body || (box.current?.contains(target) && !(target instanceof HTMLInputElement));
      if (isArrow(e.key) && !free) return;
      e.preventDefault();
      if (percent !== null) actRef.current.seekTo((actRef.current.duration * percent) / 100);
      else if (action) actRef.current.act(action);
    };
    const onFs = () => setFullscreen(document.fullscreenElement === box.current);
    document.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, []);

  // The element's events, read through a ref: the listeners are added once, the handlers see this render.
  const handlers: Record<MediaEventName, (v: HTMLVideoElement) => void> = {
    click: () => act('toggle'),
    loadedmetadata: (v) => {
      if (Number.isFinite(v.duration)) setDuration(v.duration);
      v.playbackRate = v.defaultPlaybackRate;
      const carried = carry.current;
      carry.current = null;
      if (carried?.videoId === videoId && carried.time > 0) {
        v.currentTime = carried.time;
        if (carried.playing) v.play().catch(() => undefined);
        else v.pause();
        return;
      }
      const at = startTime != null && startTime < (v.duration || knownDuration) ? startTime : resumePoint(videoId, v.duration || knownDuration, startAt);
      if (at) v.currentTime = at;
    },
    play: () => setPlaying(true),
    pause: (v) => {
      setPlaying(false);
      storage.set(positionKey(videoId), String(Math.floor(v.currentTime)));
    },
    playing: (v) => {
      if (playedOnce.current) return;
      playedOnce.current = true;
      callbacks.current.onFirstPlay?.(v.currentTime);
    },
    timeupdate: (v) => {
      const t = v.currentTime;
      setTime(t);
      if (Math.floor(t) % 5 === 0) storage.set(positionKey(videoId), String(Math.floor(t)));
    },
    volumechange: (v) => {
      setMuted(v.muted);
      setVolume(v.volume);
      // An embed's forced mute is not the visitor's choice: it never changes what the site remembers.
      if (startMuted === undefined) savePrefs({ volume: v.volume, muted: v.muted });
    },
    ratechange: (v) => {
      setSpeed(v.playbackRate);
      savePrefs({ speed: v.playbackRate });
    },
    ended: () => {
      storage.remove(positionKey(videoId));
      callbacks.current.onEnded?.();
    },
  };
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  // In the page, listening; an adopted element catches up on what it did before (metadata, playback).
  useLayoutEffect(() => {
    const media = video.current;
    slot.current!.append(media);
    const listeners = MEDIA_EVENTS.map((type) => {
      const listener = () => handlersRef.current[type](media);
      media.addEventListener(type, listener);
      return () => media.removeEventListener(type, listener);
    });
    releaseShellVideo(media);
    if (adopted) {
      if (media.readyState >= HTMLMediaElement.HAVE_METADATA) handlersRef.current.loadedmetadata(media);
      if (!media.paused) {
        handlersRef.current.play(media);
        if (media.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) handlersRef.current.playing(media);
      } else if (media.autoplay) media.play().catch(() => undefined);
    }
    return () => {
      listeners.forEach((remove) => remove());
      media.remove();
    };
  }, [el, adopted]);

  const chooseQuality = (height: number) => {
    setQuality(height);
    qualityRef.current = height;
    if (hlsRef.current) hlsRef.current.currentLevel = levelOf(hlsRef.current, height);
    // hls.js takes over from the point the native player reached (carried by the source's cleanup).
    else if (height !== AUTO && engine === 'native') setEngine('hls.js');
  };
  const chapter = chapterAt(chapters, time);

  return (
    <div
      ref={box}
      role="region"
      aria-label={t('player.region')}
      data-player
      data-playing={playing || undefined}
      // Below the sticky top bar when a timestamp link scrolls it into view.
      className={clsx('player-captions group relative aspect-video w-full scroll-mt-16 overflow-hidden bg-media sm:rounded-xl', className)}
    >
      <div ref={slot} className="contents" />
      {createPortal(<CaptionTracks captions={captions} />, el)}
      <div
        ref={bar}
        data-player-bar
        className={clsx(
          'absolute inset-x-0 bottom-0 flex flex-col gap-3 bg-gradient-to-t from-media/80 to-transparent px-3 pb-2 pt-8 text-on-media transition-opacity focus-within:opacity-100 sm:group-hover:opacity-100',
          playing && 'sm:opacity-0',
        )}
      >
        <SeekBar time={time} duration={duration} cues={cues} chapters={chapters} onSeek={seekTo} />
        <div className="flex items-center gap-0.5 sm:gap-1">
          <ControlButton label={playing ? t('player.pause') : t('player.play')} onClick={() => act('toggle')}>
            {playing ? <Pause className="size-5" aria-hidden /> : <Play className="size-5" aria-hidden />}
          </ControlButton>
          <VolumeControl volume={volume} muted={muted} onVolume={changeVolume} onMute={() => act('mute')} />
          <span className="ml-1 flex min-w-0 items-center gap-1 text-xs">
            <span className="shrink-0 tabular-nums" data-testid="player-clock">
              {formatDuration(time)} / {formatDuration(duration)}
            </span>
            {chapter && (
              <span className="truncate" title={chapter.title}>
                <span aria-hidden> · </span>
                <span className="sr-only">{t('player.chapterPrefix')}</span>
                {chapter.title}
              </span>
            )}
          </span>
          <span className="flex-1" />
          <CaptionsToggle video={el} />
          <CaptionsMenu video={el} captions={captions} id={`captions-${videoId}`} />
          <SpeedMenu speed={speed} onSpeed={changeSpeed} />
          <label className="sr-only" htmlFor={`quality-${videoId}`}>
            {t('player.quality')}
          </label>
          <select
            id={`quality-${videoId}`}
            value={quality}
            onChange={(e) => chooseQuality(Number(e.target.value))}
            className={clsx(PLAYER_SELECT, levels.length === 0 && 'hidden')}
          >
            <option value={AUTO}>{t('player.auto')}</option>
            {levels.map((height) => (
              <option key={height} value={height}>
                {height}p
              </option>
            ))}
          </select>
          <PipButton video={el} />
          <ControlButton label={t('player.shortcuts')} onClick={openHelp} className="hidden sm:flex">
            <Keyboard className="size-5" aria-hidden />
          </ControlButton>
          {onTheatre && (
            <ControlButton label={t('player.theatre')} aria-pressed={theatre === true} onClick={onTheatre} className="hidden lg:flex">
              <RectangleHorizontal className="size-5" aria-hidden />
            </ControlButton>
          )}
          <ControlButton label={fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')} onClick={() => act('fullscreen')}>
            {fullscreen ? <Minimize className="size-5" aria-hidden /> : <Maximize className="size-5" aria-hidden />}
          </ControlButton>
        </div>
      </div>
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
