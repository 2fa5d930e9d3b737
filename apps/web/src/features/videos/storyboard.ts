/** One storyboard cue: the sprite region showing the frames between start and end (seconds). */
export interface StoryboardCue {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

const toSeconds = (t: string): number => {
  const parts = t.trim().split(':').map(Number);
  return parts.reduce((acc, p) => acc * 60 + p, 0);
};

/** Parse a WebVTT storyboard (cues of `sprite.jpg#xywh=x,y,w,h`), resolving sprite URLs against the VTT's URL. */
export function parseStoryboard(vtt: string, vttUrl: string): StoryboardCue[] {
  const cues: StoryboardCue[] = [];
  const lines = vtt.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*([\d:.]+)\s+-->\s+([\d:.]+)/.exec(lines[i]!);
    if (!m) continue;
    const target = lines[i + 1]?.trim() ?? '';
    const hash = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(target);
    if (!hash) continue;
    const base = new URL(vttUrl, 'http://localhost');
    const url = new URL(hash[1]!, base);
    cues.push({
      start: toSeconds(m[1]!),
      end: toSeconds(m[2]!),
      url: url.origin === 'http://localhost' && !/^https?:/.test(vttUrl) ? url.pathname + url.search : url.href,
      x: Number(hash[2]),
      y: Number(hash[3]),
      w: Number(hash[4]),
      h: Number(hash[5]),
    });
  }
  return cues;
}

/** The cue covering `time`, or the last one before it. */
export function cueAt(cues: readonly StoryboardCue[], time: number): StoryboardCue | undefined {
  let found: StoryboardCue | undefined;
  for (const c of cues) {
    if (c.start <= time) found = c;
    if (time < c.end) break;
  }
  return found;
}
