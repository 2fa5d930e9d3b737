/** One chapter of a video: from `start` to `end` (seconds), named by the description line. */
export interface Chapter {
  start: number;
  end: number;
  title: string;
}

/** YouTube's rules: the first chapter starts at 0:00, at least three, each at least 10 s long. */
export const MIN_CHAPTERS = 3;
export const MIN_CHAPTER_SECONDS = 10;

// A line opening with a timestamp (m:ss, mm:ss or h:mm:ss, optionally in brackets and after a
// bullet), then a separator and the title: "0:00 Intro", "- 01:02:03 - Outro", "(1:23) Demo".
const LINE = /^\s*(?:[-*•]\s*)?[[(]?((?:\d{1,2}:)?\d{1,2}:\d{2})[\])]?\s*(?:[-–—:|.]\s*)?(\S.*)$/;

/** "1:23" -> 83, "01:02:03" -> 3723; null when a part is out of range (seconds >= 60). */
export function timestampSeconds(stamp: string): number | null {
  const parts = stamp.split(':').map(Number);
  if (parts.slice(1).some((p) => p >= 60)) return null;
  return parts.reduce((acc, p) => acc * 60 + p, 0);
}

/**
 * The chapters a description defines, or [] when it breaks any rule: the first timestamp
 * line is 0:00, at least three lines, ascending, each chapter at least 10 s long (the last
 * one up to `duration`), all inside the video. Shared by the server and the web player.
 */
export function parseChapters(description: string, duration: number): Chapter[] {
  const marks: { start: number; title: string }[] = [];
  for (const line of description.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const start = timestampSeconds(m[1]!);
    if (start === null) return [];
    marks.push({ start, title: m[2]!.trim() });
  }
  if (marks.length < MIN_CHAPTERS || marks[0]!.start !== 0 || !(duration > 0)) return [];
  const chapters = marks.map((mark, i) => ({ ...mark, end: marks[i + 1]?.start ?? duration }));
  if (chapters.some((c) => c.end - c.start < MIN_CHAPTER_SECONDS)) return [];
  return chapters.map(({ start, end, title }) => ({ start, end, title }));
}

/** The chapter playing at `time` (the last one starting at or before it). */
export function chapterAt(chapters: readonly Chapter[], time: number): Chapter | undefined {
  let found: Chapter | undefined;
  for (const c of chapters) if (c.start <= time) found = c;
  return found;
}
