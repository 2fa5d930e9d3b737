import { storage } from '@/lib/storage.ts';

/** Playback speeds offered (YouTube's). */
export const SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** What the player remembers across videos and visits (this browser only). */
export interface PlayerPrefs {
  volume: number;
  muted: boolean;
  speed: number;
  /** The caption language last shown ('' for a track without one), null when captions are off. */
  captions: string | null;
  theatre: boolean;
}

const KEY = 'glimpse:player';
const DEFAULTS: PlayerPrefs = { volume: 1, muted: false, speed: 1, captions: null, theatre: false };

const clampVolume = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : DEFAULTS.volume);

/** The saved preferences; anything missing or out of range falls back to the default. */
export function readPrefs(): PlayerPrefs {
  // A corrupt entry (or blocked storage) is forgotten, not fatal.
  const stored = storage.getJson(KEY);
  const saved: Partial<Record<keyof PlayerPrefs, unknown>> = stored && typeof stored === 'object' ? stored : {};
  return {
    volume: clampVolume(saved.volume),
    muted: saved.muted === true,
    speed: SPEEDS.includes(saved.speed as (typeof SPEEDS)[number]) ? (saved.speed as number) : DEFAULTS.speed,
    captions: typeof saved.captions === 'string' ? saved.captions : null,
    theatre: saved.theatre === true,
  };
}

export function savePrefs(patch: Partial<PlayerPrefs>): void {
  storage.set(KEY, JSON.stringify({ ...readPrefs(), ...patch }));
}

/** The next speed in `SPEEDS` up (+1) or down (-1), staying at the ends. */
export function stepSpeed(current: number, direction: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= current);
  const at = i === -1 ? SPEEDS.length - 1 : i;
  return SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, at + direction))]!;
}

/** `?t=` start time: `90`, `90s`, `1m30s`, `1h2m3s` or `1:30`; null when unreadable. */
export function parseStartTime(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+(:\d{1,2}){1,2}$/.test(value)) return value.split(':').reduce((acc, p) => acc * 60 + Number(p), 0);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(value);
  if (!m || (!m[1] && !m[2] && !m[3])) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}
