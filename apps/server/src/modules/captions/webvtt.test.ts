import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/errors.ts';
import { MAX_CUE_CHARS, toWebVtt } from './webvtt.ts';

const srt = `1
00:00:01,000 --> 00:00:02,500
Hello <font color="red">world</font> & <i>friends</i>

2
00:00:03,000 --> 00:00:04,000
Second line
two lines
`;

/** The 400's message for a file. */
function refusal(text: string | Buffer): string {
  try {
    toWebVtt(Buffer.isBuffer(text) ? text : Buffer.from(text));
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return `${(err as ApiError).statusCode} ${(err as ApiError).message}`;
  }
  throw new Error('accepted');
}

describe('caption conversion', () => {
  it('turns SRT into WebVTT: timings with dots, SRT-only markup dropped, & escaped, cue numbers gone', () => {
    const out = toWebVtt(Buffer.from(`\uFEFF${srt.replace(/\n/g, '\r\n')}`));
    expect(out.vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello world &amp; <i>friends</i>\n\n00:00:03.000 --> 00:00:04.000\nSecond line\ntwo lines\n',
    );
    expect(out.cues.map((c) => [c.start, c.end])).toEqual([
      [1000, 2500],
      [3000, 4000],
    ]);
    expect(out.plain).toBe('Hello world & friends\nSecond line two lines');
  });

  it('normalises WebVTT: short timestamps, identifiers, NOTE and STYLE blocks', () => {
    const out = toWebVtt(
      Buffer.from('WEBVTT - a title\nKind: captions\n\nNOTE a comment\n\nSTYLE\n::cue { color: red }\n\nintro\n01:02.003 --> 01:03.000 align:start\nHi\n'),
    );
    expect(out.vtt).toBe('WEBVTT\n\n00:01:02.003 --> 00:01:03.000\nHi\n');
  });

  it.each([
    ['plain prose', 'just some words\nand more', '400 This is not an SRT or WebVTT file (no cue timings found)'],
    ['a bad timestamp, named by line', '1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:61,000 --> 00:01:02,000\nbad\n', '400 Line 6: invalid start time "00:00:61,000"'],
    ['an end before the start', 'WEBVTT\n\n00:00:05.000 --> 00:00:04.000\nx\n', '400 Line 3: the cue ends before it starts'],
    ['cues out of order', 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nx\n\n00:00:01.000 --> 00:00:02.000\ny\n', '400 Line 6: the cue starts before the previous cue (cues must be in time order)'],
    ['an SRT comma in WebVTT', 'WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nx\n', '400 Line 3: invalid start time "00:00:01,000"'],
    ['a missing blank line', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nx\n00:00:03.000 --> 00:00:04.000\ny\n', '400 Line 5: a cue timing inside cue text (a blank line is missing)'],
    ['an overlong cue', `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'a'.repeat(MAX_CUE_CHARS + 1)}\n`, `400 Line 4: the cue text is longer than ${MAX_CUE_CHARS} characters`],
    ['no cues', 'WEBVTT\n\nNOTE nothing here\n', '400 The caption file has no cues'],
  ])('refuses %s with a 400 naming the problem', (_name, text, message) => {
    expect(refusal(text)).toBe(message);
  });

  it('refuses binary files and files over the size limit', () => {
    expect(refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]))).toBe('400 The caption file is not UTF-8 text');
    expect(refusal('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\u0000x\n')).toBe('400 The caption file is not text (it contains control characters)');
    expect(refusal(Buffer.alloc(512 * 1024 + 1, 'a'))).toBe('413 File size should not exceed 0.5MB');
  });
});
