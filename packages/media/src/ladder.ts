/** One rendition of the HLS ladder. */
export interface Rendition {
  /** The short side in pixels: the "p" in 720p. */
  rung: number;
  width: number;
  height: number;
  /** Bitrate cap (kbit/s): quality-capped encodes spend less on simple pictures. */
  maxKbps: number;
  /** x264 constant rate factor aimed at under the cap, and the speed preset. */
  crf: number;
  preset: string;
  /** Frame rate as a rational string ("30", "30000/1001"). */
  fps: string;
}

/** What an operator may tune; DEFAULT_LADDER holds the documented defaults. */
export interface LadderRung {
  /** The short side. */
  height: number;
  /** Bitrate cap (kbit/s). */
  maxKbps: number;
  /** x264 constant rate factor under the cap. */
  crf: number;
  /** x264 speed preset: small rungs cost little, so they afford a slower, more efficient one. */
  preset: string;
}

export interface LadderSettings {
  rungs: readonly LadderRung[];
  /** Frame rate cap of the rungs below `highFpsFrom`; from there up, up to `maxFps` is kept. */
  fpsCap: number;
  highFpsFrom: number;
  maxFps: number;
  segmentSeconds: number;
  audioKbps: number;
  /** The lowest rung is made first, alone, at this x264 preset or a faster one, so a video plays soon after its upload (ADR 019). */
  firstPassPreset: string;
  /** Each rung's CRF raised one step for a video where that step costs little SSIM (crf-probe.ts). */
  crfProbe: boolean;
}

export const DEFAULT_LADDER: LadderSettings = {
  // Chosen from a rate-quality sweep against PeerTube's ladder (bench/ladder-sweep.ts, ADR 025's
  // transcode addendum): the CRF per rung that keeps SSIM at PeerTube's with the fewest bytes, and
  // the preset that buys bytes cheaply (medium and slow only where the rung is small). The lowest
  // rung at medium costs about 1 CPU-s per 10 s of video at 240p and makes 0.75x PeerTube's bytes at
  // its SSIM on the synthetic clip, where veryfast needed 1.04x: the first pass makes it at superfast
  // (the video plays sooner), and the second pass makes it again at medium (ADR 025, fifth and
  // thirteenth rounds: superfast spends more bytes on a rung that lives a minute or two).
  // 720p and 1080p at faster CRF 24, not PeerTube's veryfast CRF 23: on a screen recording's 1080p
  // about half the bytes at a higher SSIM, on grainy footage +0.02 SSIM for fewer bytes, the
  // synthetic clip's bytes and SSIM unchanged, for 10-35 % more CPU on these two encodes (ADR 025,
  // fourteenth round).
  rungs: [
    { height: 240, maxKbps: 400, crf: 25, preset: 'medium' },
    { height: 360, maxKbps: 800, crf: 25, preset: 'slow' },
    { height: 480, maxKbps: 1400, crf: 25, preset: 'medium' },
    { height: 720, maxKbps: 2800, crf: 24, preset: 'faster' },
    { height: 1080, maxKbps: 5000, crf: 24, preset: 'faster' },
  ],
  fpsCap: 30,
  highFpsFrom: 720,
  maxFps: 60,
  segmentSeconds: 4,
  audioKbps: 128,
  firstPassPreset: 'superfast',
  crfProbe: true,
};

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Size of a rendition whose short side is `rung`, keeping the source's aspect ratio. */
function fit(width: number, height: number, rung: number): { width: number; height: number } {
  return width >= height
    ? { width: even((width * rung) / height), height: even(rung) }
    : { width: even(rung), height: even((height * rung) / width) };
}

export interface Rate {
  num: number;
  den: number;
}

const STANDARD_RATES: Rate[] = [
  { num: 24000, den: 1001 },
  { num: 24, den: 1 },
  { num: 25, den: 1 },
  { num: 30000, den: 1001 },
  { num: 30, den: 1 },
  { num: 48, den: 1 },
  { num: 50, den: 1 },
  { num: 60000, den: 1001 },
  { num: 60, den: 1 },
];

/**
 * The constant output rate for a source averaging `fps` (variable-rate phone videos average odd
 * values): the nearest standard rate within 3 %, else the rounded rate; halved until within `cap`,
 * so every rung's frames fall on the same instants and keyframes align.
 */
export function outputRate(fps: number, cap: number): Rate {
  const safe = Number.isFinite(fps) && fps > 0 ? fps : 30;
  const off = (r: Rate) => Math.abs(r.num / r.den - safe) / safe;
  const nearest = [...STANDARD_RATES].sort((a, b) => off(a) - off(b))[0]!;
  let rate = off(nearest) < 0.03 ? nearest : { num: Math.max(1, Math.round(safe)), den: 1 };
  while (rate.num / rate.den > cap + 0.01) rate = rate.num % 2 === 0 ? { num: rate.num / 2, den: rate.den } : { num: rate.num, den: rate.den * 2 };
  return rate;
}

export const rateString = (r: Rate): string => (r.den === 1 ? String(r.num) : `${r.num}/${r.den}`);
export const rateValue = (r: Rate): number => r.num / r.den;

/**
 * Rungs up to the source's short side (never upscaled). A source between two rungs, well above
 * the lower one (288p, 719p), also gets a rendition at its own size under the next rung's cap,
 * so it is never shown below its own quality. Rungs from `highFpsFrom` keep up to `maxFps`,
 * lower ones `fpsCap`.
 */
export function selectLadder(width: number, height: number, fps = 30, settings: LadderSettings = DEFAULT_LADDER): Rendition[] {
  const shortSide = Math.min(width, height);
  const sorted = [...settings.rungs].sort((a, b) => a.height - b.height);
  const fpsFor = (rung: number) => rateString(outputRate(fps, rung >= settings.highFpsFrom ? settings.maxFps : settings.fpsCap));
  const rungs = sorted.filter((r) => r.height <= shortSide);
  const next = sorted.find((r) => r.height > shortSide);
  const top = rungs.at(-1);
  if (next && (!top || shortSide >= top.height * 1.2)) rungs.push({ ...next, height: Math.floor(shortSide / 2) * 2 });
  return rungs.map((r) => ({ rung: r.height, ...fit(width, height, r.height), maxKbps: r.maxKbps, crf: r.crf, preset: r.preset, fps: fpsFor(r.height) }));
}
