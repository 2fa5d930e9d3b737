/**
 * The clock burned into the latency bench's picture: the low 32 bits of the wall-clock time in
 * milliseconds as three rows of sixteen 40-pixel blocks (white = 1) on a 640x360 frame: the high
 * half, the low half, then their XOR, so a frame read wrong (a damaged or half-decoded picture) is
 * dropped instead of counted. Big blocks survive x264 and the 360p rung's scaling.
 */
export const CLOCK = { width: 640, height: 360, block: 40, top: 80 } as const;

export function clockBits(ms: number): number[][] {
  const t = ms % 2 ** 32;
  const hi = Math.floor(t / 65_536);
  const lo = t % 65_536;
  const row = (v: number) => Array.from({ length: 16 }, (_, i) => (v >> (15 - i)) & 1);
  return [row(hi), row(lo), row(hi ^ lo)];
}

/**
 * Reads the clock back from RGBA pixels of the whole picture at any size (the browser's canvas),
 * or null when the check row disagrees. Runs in the page too: it must stay self-contained.
 */
export function readClock(rgba: Uint8ClampedArray, width: number, height: number): number | null {
  const sx = width / 640;
  const sy = height / 360;
  const rows: number[] = [];
  for (let r = 0; r < 3; r++) {
    let v = 0;
    for (let c = 0; c < 16; c++) {
      // The mean luma of the block's middle half, against the halfway grey.
      let sum = 0;
      let n = 0;
      for (let y = Math.round((80 + r * 40 + 10) * sy); y < Math.round((80 + r * 40 + 30) * sy); y++) {
        for (let x = Math.round((c * 40 + 10) * sx); x < Math.round((c * 40 + 30) * sx); x++) {
          const i = (y * width + x) * 4;
          sum += rgba[i]! + rgba[i + 1]! + rgba[i + 2]!;
          n += 3;
        }
      }
      v = v * 2 + (sum / n > 128 ? 1 : 0);
    }
    rows.push(v);
  }
  return (rows[0]! ^ rows[1]!) === rows[2] ? rows[0]! * 65_536 + rows[1]! : null;
}
