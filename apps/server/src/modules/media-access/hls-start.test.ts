import { describe, expect, it } from 'vitest';
import { audioRendition, beside, mediaStart, startVariant } from './hls-start.ts';

const MASTER = [
  '#EXTM3U',
  '#EXT-X-VERSION:7',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="stereo",DEFAULT=NO,URI="audio-hi/a.m3u8"',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="commentary",DEFAULT=NO,URI="commentary/index.m3u8"',
  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="main",DEFAULT=YES,URI="audio/index.m3u8"',
  '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="lo",NAME="English",DEFAULT=YES,URI="subs/en.m3u8"',
  '#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",AUDIO="hi"',
  '720p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=450000,CODECS="avc1.640015,mp4a.40.2",RESOLUTION=426x240,AUDIO="lo"',
  '240p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=450000,RESOLUTION=426x240,AUDIO="hi"',
  '240p-b/index.m3u8',
].join('\r\n');

describe('HLS start files', () => {
  it('starts with the lowest bandwidth, the first of equals, whatever the order of attributes', () => {
    expect(startVariant(MASTER)).toEqual({ uri: '240p/index.m3u8', audio: 'lo' });
    expect(startVariant('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-ENDLIST')).toBeNull();
    expect(startVariant('#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nonly.m3u8')).toEqual({ uri: 'only.m3u8', audio: null });
  });

  it("picks the group's default audio rendition, else its first, never a subtitle", () => {
    expect(audioRendition(MASTER, 'lo')).toBe('audio/index.m3u8');
    expect(audioRendition(MASTER, 'hi')).toBe('audio-hi/a.m3u8');
    expect(audioRendition(MASTER, 'none')).toBeNull();
  });

  it('takes the init segment and the first segment of a media playlist', () => {
    expect(mediaStart('#EXTM3U\n#EXT-X-MAP:URI="init_1.mp4"\n#EXTINF:4,\nseg_00000.m4s\n#EXTINF:4,\nseg_00001.m4s\n')).toEqual(['init_1.mp4', 'seg_00000.m4s']);
    expect(mediaStart('#EXTM3U\n#EXTINF:4,\n  a.ts  \n#EXTINF:4,\nb.ts\n')).toEqual(['a.ts']);
    expect(mediaStart('#EXTM3U\n#EXT-X-ENDLIST\n')).toEqual([]);
  });

  it('follows a reference beside or below the playlist, by URL and by key, and nothing else', () => {
    const master = { url: '/media/videos/v1/pub-t/hls/master.m3u8', key: 'videos/v1/hls/master.m3u8' };
    expect(beside(master, '240p/index.m3u8')).toEqual({ url: '/media/videos/v1/pub-t/hls/240p/index.m3u8', key: 'videos/v1/hls/240p/index.m3u8' });
    expect(beside({ url: '/m/hls/240p/index.m3u8', key: 'k/hls/240p/index.m3u8' }, 'seg_00000.m4s')).toEqual({ url: '/m/hls/240p/seg_00000.m4s', key: 'k/hls/240p/seg_00000.m4s' });
    for (const uri of ['../other/master.m3u8', 'a/../../x.m4s', '..', '/media/x.m4s', 'https://elsewhere.example/x.m4s', 'seg.m4s?x=1'])
      expect(beside(master, uri), uri).toBeNull();
  });
});
