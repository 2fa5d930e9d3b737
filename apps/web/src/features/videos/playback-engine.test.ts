import { describe, expect, it } from 'vitest';
import { playbackEngine } from './playback-engine.ts';

describe('playbackEngine', () => {
  it('prefers hls.js where Media Source Extensions exist, even when native HLS is there too (Chromium 141+)', () => {
    expect(playbackEngine({ MediaSource: class {} }, true)).toBe('hls.js');
    expect(playbackEngine({ ManagedMediaSource: class {} }, true)).toBe('hls.js');
  });

  it('uses native HLS without MSE (older iPhones)', () => {
    expect(playbackEngine({}, true)).toBe('native');
  });

  it('falls back to hls.js (which then reports itself unsupported) when neither is there', () => {
    expect(playbackEngine({}, false)).toBe('hls.js');
  });
});
