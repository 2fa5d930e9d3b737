/** Reading a rung's rate-quality curve (its encodes at a few CRFs: bytes and SSIM each). */
export interface CurvePoint {
  crf: number;
  bytes: number;
  ssim: number;
}

/**
 * Bytes at `ssim` on a rate-quality curve: log bytes linear in SSIM between the two points around
 * it. Outside the points, the nearest one's bytes as a bound: '>' (more than: even the best point
 * stays under that SSIM) or '<' (less than: even the smallest point is above it).
 */
export function bytesAt(points: CurvePoint[], ssim: number): { bytes: number; bound: '' | '>' | '<' } {
  const p = [...points].sort((a, b) => a.ssim - b.ssim);
  if (ssim > p.at(-1)!.ssim) return { bytes: p.at(-1)!.bytes, bound: '>' };
  if (ssim < p[0]!.ssim) return { bytes: p[0]!.bytes, bound: '<' };
  const above = p.findIndex((x) => x.ssim >= ssim);
  const [a, b] = [p[Math.max(0, above - 1)]!, p[above]!];
  const t = b.ssim === a.ssim ? 1 : (ssim - a.ssim) / (b.ssim - a.ssim);
  return { bytes: Math.exp(Math.log(a.bytes) + t * (Math.log(b.bytes) - Math.log(a.bytes))), bound: '' };
}

/** SSIM in decibels, -10 log10(1 - SSIM): equal steps are equal ratios of what is left to lose. */
export const ssimDb = (ssim: number): number => -10 * Math.log10(1 - ssim);

/**
 * What a step up the CRF costs in quality for what it saves: the SSIM decibels lost per halving
 * of the bytes from `from` to `to`. Where it is small (grain that x264 spends bits on and SSIM
 * barely sees) a higher CRF for that video would cost little; where it is large it would not.
 */
export function dbPerHalving(from: CurvePoint, to: CurvePoint): number {
  return (ssimDb(from.ssim) - ssimDb(to.ssim)) / Math.log2(from.bytes / to.bytes);
}

/** dbPerHalving of each step of a curve, in its order (a CRF and the next). */
export const dbPerStep = (points: CurvePoint[]): number[] => points.slice(1).map((p, i) => dbPerHalving(points[i]!, p));
