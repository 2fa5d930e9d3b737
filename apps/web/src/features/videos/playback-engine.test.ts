import { describe, expect, it } from 'vitest';
import { canTakeOver, playbackEngine, variantHeights } from './playback-engine.ts';

describe('playbackEngine', () => {
  it('lets the browser play HLS itself where it can (no hls.js before the first frame)', () => {
    expect(playbackEngine(true)).toBe('native');
  });

  it('uses hls.js where the browser cannot play HLS', () => {
    expect(playbackEngine(false)).toBe('hls.js');
  });

  it('lets hls.js take over for a chosen quality only where Media Source Extensions exist', () => {
    expect(canTakeOver({ MediaSource: class {} })).toBe(true);
    expect(canTakeOver({ ManagedMediaSource: class {} })).toBe(true);
    expect(canTakeOver({})).toBe(false);
  });
});

describe('variantHeights', () => {
  it('lists the master playlist variants by height, highest first, once each', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,URI="audio/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=426x240,CODECS="avc1.64001e,mp4a.40.2",AUDIO="audio"',
      '240p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720,AUDIO="audio"',
      '720p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=854x480,AUDIO="audio"',
      '480p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=1300000,RESOLUTION=854x480,AUDIO="audio"',
      '480p-b/index.m3u8',
    ].join('\r\n');
    expect(variantHeights(master)).toEqual([720, 480, 240]);
  });

  it('offers nothing for a playlist without variants', () => {
    expect(variantHeights('#EXTM3U\n#EXT-X-TARGETDURATION:4\nseg_00000.m4s\n')).toEqual([]);
  });
});
