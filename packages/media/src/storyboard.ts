/** Layout of the seek-preview sprite: `count` thumbnails, one every `intervalSeconds`. */
export interface StoryboardPlan {
  intervalSeconds: number;
  count: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** At most `maxTiles` thumbnails (one sprite image stays small), no closer than `minInterval` seconds. */
export function planStoryboard(
  durationSeconds: number,
  width: number,
  height: number,
  opts: { tileWidth?: number; maxTiles?: number; columns?: number; minInterval?: number } = {},
): StoryboardPlan {
  const tileWidth = opts.tileWidth ?? 160;
  const maxTiles = opts.maxTiles ?? 100;
  const minInterval = opts.minInterval ?? 2;
  const intervalSeconds = Math.max(minInterval, Math.ceil(durationSeconds / maxTiles));
  const count = Math.max(1, Math.min(maxTiles, Math.ceil(durationSeconds / intervalSeconds)));
  const columns = Math.min(opts.columns ?? 10, count);
  return {
    intervalSeconds,
    count,
    columns,
    rows: Math.ceil(count / columns),
    tileWidth,
    tileHeight: even((tileWidth * height) / width),
  };
}

/**
 * The filter that turns decoded frames into the sprite (one output frame): the first frame, then
 * one every interval. Unlike an fps filter it always takes the first frame, so a video shorter
 * than planned (its timestamps lied) still gets a sprite; tile sends a partial grid at the end.
 */
export function storyboardFilter(plan: StoryboardPlan): string {
  return `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${plan.intervalSeconds})',scale=${plan.tileWidth}:${plan.tileHeight},tile=${plan.columns}x${plan.rows}`;
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** WebVTT whose cues point into the sprite with media fragments (`sprite.jpg#xywh=x,y,w,h`). */
export function storyboardVtt(plan: StoryboardPlan, durationSeconds: number, spriteUrl: string): string {
  const cues: string[] = ['WEBVTT', ''];
  for (let i = 0; i < plan.count; i++) {
    const start = i * plan.intervalSeconds;
    const end = Math.min((i + 1) * plan.intervalSeconds, durationSeconds);
    if (start >= durationSeconds) break;
    const x = (i % plan.columns) * plan.tileWidth;
    const y = Math.floor(i / plan.columns) * plan.tileHeight;
    cues.push(`${vttTime(start)} --> ${vttTime(end)}`, `${spriteUrl}#xywh=${x},${y},${plan.tileWidth},${plan.tileHeight}`, '');
  }
  return cues.join('\n');
}
