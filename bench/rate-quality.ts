/** Reading a rung's rate-quality curve (its encodes at a few CRFs: bytes and SSIM each). */
import { dbPerHalving, type CurvePoint } from '@glimpse/media';

export { dbPerHalving, ssimDb, type CurvePoint } from '@glimpse/media';

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

/** dbPerHalving of each step of a curve, in its order (a CRF and the next). */
export const dbPerStep = (points: CurvePoint[]): number[] => points.slice(1).map((p, i) => dbPerHalving(points[i]!, p));
