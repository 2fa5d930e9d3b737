import { describe, expect, it } from 'vitest';
import { cueAt, parseStoryboard } from './storyboard.ts';

const vtt = `WEBVTT

00:00:00.000 --> 00:00:05.000
sprite.jpg#xywh=0,0,160,90

00:00:05.000 --> 00:00:10.000
sprite.jpg#xywh=160,0,160,90

1
00:01:00.000 --> 01:00:05.500
other/s2.jpg#xywh=0,90,160,90
`;

describe('storyboard', () => {
  it('parses cues and resolves sprite URLs against the VTT URL', () => {
    const cues = parseStoryboard(vtt, '/media/videos/v1/storyboard.vtt');
    expect(cues).toHaveLength(3);
    expect(cues[0]).toEqual({ start: 0, end: 5, url: '/media/videos/v1/sprite.jpg', x: 0, y: 0, w: 160, h: 90 });
    expect(cues[2]).toMatchObject({ start: 60, end: 3605.5, url: '/media/videos/v1/other/s2.jpg', y: 90 });
    expect(parseStoryboard(vtt, 'https://cdn.example/v1/sb.vtt')[1]!.url).toBe('https://cdn.example/v1/sprite.jpg');
  });
  it('finds the cue for a time', () => {
    const cues = parseStoryboard(vtt, '/s.vtt');
    expect(cueAt(cues, 0)!.x).toBe(0);
    expect(cueAt(cues, 7)!.x).toBe(160);
    expect(cueAt(cues, 30)!.x).toBe(160);
    expect(cueAt(cues, 61)!.y).toBe(90);
    expect(cueAt([], 3)).toBeUndefined();
  });
});
