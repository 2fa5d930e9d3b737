/**
 * Which engine plays an HLS source. hls.js wherever Media Source Extensions exist: it
 * gives the quality choice, and recent Chromium also answers canPlayType for HLS natively
 * but offers no rendition control. Native HLS only where MSE is missing (older iPhones).
 */
export function playbackEngine(win: object, canPlayNativeHls: boolean): 'hls.js' | 'native' {
  if ('MediaSource' in win || 'ManagedMediaSource' in win) return 'hls.js';
  return canPlayNativeHls ? 'native' : 'hls.js';
}
