/**
 * Which engine plays an HLS source first. The browser's own wherever it plays HLS (Safari, Chromium
 * 141+): the first frame then needs none of hls.js's ~150 KB of script, the watch page's largest
 * cost on a phone (ADR 017). hls.js everywhere else, and on demand where Media Source Extensions
 * exist, when the viewer picks a quality by hand (native players offer no rendition control).
 */
export function playbackEngine(canPlayNativeHls: boolean): 'hls.js' | 'native' {
  return canPlayNativeHls ? 'native' : 'hls.js';
}

/** Whether hls.js could take over from the native player (it needs Media Source Extensions). */
export const canTakeOver = (win: object) => 'MediaSource' in win || 'ManagedMediaSource' in win;

/** The heights a master playlist offers (its variants' RESOLUTION), highest first, each once. */
export function variantHeights(master: string): number[] {
  const heights = new Set<number>();
  for (const line of master.split(/\r?\n/)) {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const height = /RESOLUTION=\d+x(\d+)/.exec(line)?.[1];
    if (height) heights.add(Number(height));
  }
  return [...heights].sort((a, b) => b - a);
}
