import { describe, expect, it } from 'vitest';
import { chapterAt, parseChapters, timestampSeconds } from './chapters.ts';

const three = ['0:00 Intro', '0:15 Setup', '0:30 Wrap-up'].join('\n');

describe('parseChapters (YouTube rules)', () => {
  it('reads timestamp lines with their titles, the last chapter ending at the duration', () => {
    expect(parseChapters(`A short demo.\n\n${three}\n\nThanks for watching!`, 45)).toEqual([
      { start: 0, end: 15, title: 'Intro' },
      { start: 15, end: 30, title: 'Setup' },
      { start: 30, end: 45, title: 'Wrap-up' },
    ]);
  });

  it('accepts m:ss, mm:ss and h:mm:ss, brackets, bullets and separators', () => {
    const text = ['- 00:00 - Start', '(01:30) Middle part', '• 1:02:03: Late', '1:10:00 | End'].join('\n');
    expect(parseChapters(text, 4500).map((c) => [c.start, c.title])).toEqual([
      [0, 'Start'],
      [90, 'Middle part'],
      [3723, 'Late'],
      [4200, 'End'],
    ]);
  });

  it('needs the first chapter at 0:00', () => {
    expect(parseChapters(['0:05 Intro', '0:20 Setup', '0:40 End'].join('\n'), 60)).toEqual([]);
  });

  it('needs at least three chapters', () => {
    expect(parseChapters(['0:00 Intro', '0:20 End'].join('\n'), 60)).toEqual([]);
  });

  it('needs every chapter to last at least 10 s, the last one measured to the duration', () => {
    expect(parseChapters(['0:00 Intro', '0:09 Setup', '0:30 End'].join('\n'), 60)).toEqual([]);
    expect(parseChapters(three, 39)).toEqual([]);
    expect(parseChapters(three, 40)).toHaveLength(3);
  });

  it('needs ascending timestamps inside the video', () => {
    expect(parseChapters(['0:00 Intro', '0:40 Later', '0:20 Earlier'].join('\n'), 60)).toEqual([]);
    expect(parseChapters(['0:00 Intro', '0:20 Setup', '2:00 Beyond the end'].join('\n'), 60)).toEqual([]);
  });

  it('gives no chapters for a malformed timestamp, a missing title or an unknown duration', () => {
    expect(parseChapters(['0:00 Intro', '0:75 Setup', '1:30 End'].join('\n'), 120)).toEqual([]);
    expect(parseChapters(['0:00', '0:20', '0:40'].join('\n'), 60)).toEqual([]);
    expect(parseChapters(three, 0)).toEqual([]);
    expect(parseChapters('', 60)).toEqual([]);
  });

  it('ignores timestamps inside a sentence', () => {
    expect(parseChapters(['Skip to 0:00 for the start', 'see 0:20 and 0:40'].join('\n'), 60)).toEqual([]);
  });
});

describe('timestampSeconds and chapterAt', () => {
  it('converts timestamps and finds the chapter playing at a time', () => {
    expect(['0:00', '1:23', '01:02:03', '1:60'].map(timestampSeconds)).toEqual([0, 83, 3723, null]);
    const chapters = parseChapters(three, 45);
    expect([0, 14.9, 15, 44, -1].map((t) => chapterAt(chapters, t)?.title)).toEqual(['Intro', 'Intro', 'Setup', 'Wrap-up', undefined]);
  });
});
