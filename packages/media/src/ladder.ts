/** One rendition of the HLS ladder. */
export interface Rendition {
  /** The short side in pixels: the "p" in 720p. */
  rung: number;
  width: number;
  height: number;
  videoKbps: number;
}

/** Rungs and their target video bitrates (H.264, typical web VOD ladder). */
export const LADDER: readonly { rung: number; videoKbps: number }[] = [
  { rung: 240, videoKbps: 400 },
  { rung: 360, videoKbps: 800 },
  { rung: 480, videoKbps: 1400 },
  { rung: 720, videoKbps: 2800 },
  { rung: 1080, videoKbps: 5000 },
];

export const AUDIO_KBPS = 128;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Size of a rendition whose short side is `rung`, keeping the source's aspect ratio. */
function fit(width: number, height: number, rung: number): { width: number; height: number } {
  return width >= height
    ? { width: even((width * rung) / height), height: even(rung) }
    : { width: even(rung), height: even((height * rung) / width) };
}

/**
 * Rungs up to the source's short side (never upscaled); a source smaller than the lowest rung
 * gets one rendition at its own size.
 */
export function selectLadder(width: number, height: number): Rendition[] {
  const shortSide = Math.min(width, height);
  const rungs = LADDER.filter((r) => r.rung <= shortSide);
  if (rungs.length === 0) return [{ rung: shortSide, ...fit(width, height, shortSide), videoKbps: LADDER[0]!.videoKbps }];
  return rungs.map((r) => ({ rung: r.rung, ...fit(width, height, r.rung), videoKbps: r.videoKbps }));
}
