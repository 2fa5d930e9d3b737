import type { HeartbeatBody } from '@glimpse/contract';
import { HEARTBEAT_INTERVAL_S, HEARTBEAT_MAX_POSITIONS, trafficSources, type TrafficSource } from '@glimpse/contract/heartbeat';

/**
 * What the player reports for creator analytics (ARCHITECTURE §11): the whole seconds of the video
 * it played, batched, every HEARTBEAT_INTERVAL_S while playing and at once on pause, end, leaving
 * the page or unmounting. Pure apart from attachWatchReporter, which wires it to a <video>.
 */

/** Whole seconds between two timeupdates that still count as continuous play (they come every ~250 ms; 2x skips further). */
const MAX_GAP_S = 3;
const MAX_POSITION = 24 * 3600;

/** `keepalive`: the page may be going away, so the request must outlive it. */
export type HeartbeatSend = (body: HeartbeatBody, keepalive: boolean) => Promise<unknown>;

/** The played seconds not yet reported. A seek starts a new run: the seconds it skipped stay unplayed. */
export class PositionCollector {
  private last: number | null = null;
  private readonly pending = new Set<number>();

  played(time: number): void {
    if (!Number.isFinite(time) || time < 0) return;
    const second = Math.min(Math.floor(time), MAX_POSITION);
    const last = this.last;
    const from = last !== null && second > last && second - last <= MAX_GAP_S ? last + 1 : second;
    for (let s = from; s <= second; s++) this.pending.add(s);
    this.last = second;
  }

  seeked(): void {
    this.last = null;
  }

  /** Empties the queue into batches the contract accepts (at most HEARTBEAT_MAX_POSITIONS each). */
  take(): number[][] {
    const all = [...this.pending].sort((a, b) => a - b);
    this.pending.clear();
    const batches: number[][] = [];
    for (let i = 0; i < all.length; i += HEARTBEAT_MAX_POSITIONS) batches.push(all.slice(i, i + HEARTBEAT_MAX_POSITIONS));
    return batches;
  }
}

export interface WatchReporter {
  played: (time: number) => void;
  seeked: () => void;
  flush: (keepalive: boolean) => void;
}

/** One viewing session. Reports are best effort: a failed one is dropped, playback never notices. */
export function createWatchReporter({ videoId, sessionId, source, send }: { videoId: string; sessionId: string; source: TrafficSource; send: HeartbeatSend }): WatchReporter {
  const positions = new PositionCollector();
  return {
    played: (time) => positions.played(time),
    seeked: () => positions.seeked(),
    flush: (keepalive) => {
      for (const batch of positions.take()) void send({ videoId, sessionId, source, positions: batch }, keepalive).catch(() => undefined);
    },
  };
}

/**
 * Feeds a reporter from a <video>: timeupdate while playing, seeks, a flush every
 * HEARTBEAT_INTERVAL_S while it plays and a keepalive flush on pause, end, pagehide, a hidden tab
 * (mobile browsers may never fire pagehide) and detach. Returns the detach function.
 */
export function attachWatchReporter(video: HTMLVideoElement, reporter: WatchReporter, win: Window = window): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  const start = () => {
    timer ??= setInterval(() => reporter.flush(false), HEARTBEAT_INTERVAL_S * 1000);
  };
  const finalFlush = () => reporter.flush(true);
  const onTime = () => {
    // A seek while paused fires timeupdate too; only what plays counts.
    if (!video.paused && !video.seeking) reporter.played(video.currentTime);
  };
  const onStop = () => {
    stop();
    finalFlush();
  };
  const onVisibility = () => {
    if (win.document.visibilityState === 'hidden') finalFlush();
  };
  const onSeeking = () => reporter.seeked();
  video.addEventListener('timeupdate', onTime);
  video.addEventListener('seeking', onSeeking);
  video.addEventListener('play', start);
  video.addEventListener('pause', onStop);
  video.addEventListener('ended', onStop);
  win.addEventListener('pagehide', finalFlush);
  win.document.addEventListener('visibilitychange', onVisibility);
  if (!video.paused) start();
  return () => {
    video.removeEventListener('timeupdate', onTime);
    video.removeEventListener('seeking', onSeeking);
    video.removeEventListener('play', start);
    video.removeEventListener('pause', onStop);
    video.removeEventListener('ended', onStop);
    win.removeEventListener('pagehide', finalFlush);
    win.document.removeEventListener('visibilitychange', onVisibility);
    onStop();
  };
}

/** What a link to the watch page carries in its router state: the page it was on. */
export interface WatchLinkState {
  source: TrafficSource;
}

const isSource = (value: unknown): value is TrafficSource => (trafficSources as readonly unknown[]).includes(value);

/**
 * Where this view came from: the source a link of the app put in the router state; else, on the
 * page the browser landed on, another site's referrer means 'external' (document.referrer keeps
 * the landing page's referrer for the whole visit, so it says nothing about later in-app moves).
 */
export function resolveSource({ state, referrer, host, landed }: { state: unknown; referrer: string; host: string; landed: boolean }): TrafficSource {
  const claimed = state && typeof state === 'object' ? (state as { source?: unknown }).source : undefined;
  if (isSource(claimed)) return claimed;
  if (landed && referrer) {
    try {
      if (new URL(referrer).host !== host) return 'external';
    } catch {
      // Not a URL: treated as no referrer.
    }
  }
  return 'direct';
}

/** A random UUID (v4) for the session; crypto.randomUUID exists only in secure contexts (a LAN instance over http has none). */
export function newSessionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
