import { describe, expect, it } from 'vitest';
import { bytesAt, dbPerHalving, dbPerStep, ssimDb } from './rate-quality.ts';

// A curve as x264 draws one: fewer bytes and a lower SSIM at each higher CRF.
const curve = [
  { crf: 23, bytes: 1000, ssim: 0.995 },
  { crf: 25, bytes: 800, ssim: 0.993 },
  { crf: 27, bytes: 640, ssim: 0.99 },
];

describe('bytesAt', () => {
  it('interpolates log bytes in SSIM between the two points around it', () => {
    expect(bytesAt(curve, 0.994)).toEqual({ bytes: expect.closeTo(Math.sqrt(1000 * 800), 6), bound: '' });
    expect(bytesAt([...curve].reverse(), 0.9915).bytes).toBeCloseTo(Math.sqrt(800 * 640), 6);
  });

  it('gives a point itself at its SSIM', () => {
    for (const point of curve) expect(bytesAt(curve, point.ssim)).toEqual({ bytes: expect.closeTo(point.bytes, 6), bound: '' });
  });

  it('bounds what the points do not reach', () => {
    expect(bytesAt(curve, 0.997)).toEqual({ bytes: 1000, bound: '>' });
    expect(bytesAt(curve, 0.98)).toEqual({ bytes: 640, bound: '<' });
  });
});

describe('dbPerHalving', () => {
  it('is the SSIM decibels a step loses per halving of the bytes', () => {
    expect(ssimDb(0.99)).toBeCloseTo(20, 9);
    expect(ssimDb(0.999)).toBeCloseTo(30, 9);
    // Half the bytes for 0.99 -> 0.98: 20 dB -> 16.99 dB.
    expect(dbPerHalving({ crf: 23, bytes: 1000, ssim: 0.99 }, { crf: 25, bytes: 500, ssim: 0.98 })).toBeCloseTo(10 * Math.log10(2), 9);
    // A quarter of the bytes for the same loss: half as many decibels per halving.
    expect(dbPerHalving({ crf: 23, bytes: 1000, ssim: 0.99 }, { crf: 27, bytes: 250, ssim: 0.98 })).toBeCloseTo(5 * Math.log10(2), 9);
    expect(dbPerStep(curve)).toEqual([dbPerHalving(curve[0]!, curve[1]!), dbPerHalving(curve[1]!, curve[2]!)]);
  });
});
