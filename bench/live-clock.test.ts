import { describe, expect, it } from 'vitest';
import { CLOCK, clockBits, readClock } from './live-clock.ts';

/** The clock's picture as a browser canvas holds it (RGBA), at any size. */
function rgba(ms: number, width: number, height: number): Uint8ClampedArray {
  const px = new Uint8ClampedArray(width * height * 4).fill(60);
  const bits = clockBits(ms);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.floor(((y * CLOCK.height) / height - CLOCK.top) / CLOCK.block);
      const c = Math.floor((x * CLOCK.width) / width / CLOCK.block);
      if (r >= 0 && r < 3 && bits[r]![c]) px.fill(235, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return px;
}

describe('the latency bench clock', () => {
  it('reads back the milliseconds it drew, at the source size and scaled, and refuses a damaged picture', () => {
    const now = 1_796_000_123_456;
    expect(readClock(rgba(now, 640, 360), 640, 360)).toBe(now % 2 ** 32);
    expect(readClock(rgba(now + 1, 480, 270), 480, 270)).toBe((now + 1) % 2 ** 32);
    const damaged = rgba(now, 640, 360);
    // One block of the low half turned to its opposite: the check row disagrees.
    const bit = clockBits(now)[1]![15]!;
    for (let y = 120; y < 160; y++) damaged.fill(bit ? 16 : 235, (y * 640 + 600) * 4, (y * 640 + 640) * 4);
    expect(readClock(damaged, 640, 360)).toBeNull();
  });
});
