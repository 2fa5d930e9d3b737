import { HLS_TYPE, SHELL_VIDEO_ID } from '@glimpse/contract/first-paint';

/**
 * The watch page's shell starts its video at HTML time (ADR 017, addendum 5): the player adopts
 * that element, playing or buffered, instead of loading the video again. Only the first page of a
 * visit has one, and only its first player may take it.
 */
let found: HTMLVideoElement | null = null;

/** The shell's video when it plays `src` with the browser's own HLS (the player's native engine); else null. */
export function shellVideoFor(src: string): HTMLVideoElement | null {
  const video = document.getElementById(SHELL_VIDEO_ID);
  if (!(video instanceof HTMLVideoElement)) return null;
  found = video;
  const source = video.querySelector<HTMLSourceElement>(`source[type="${HLS_TYPE}"]`);
  return source?.src === new URL(src, document.baseURI).href ? video : null;
}

/**
 * Marks the shell's video as taken, by `adopted` or by nobody. One that no player adopted stops
 * loading: the app's first render took it off the page.
 */
export function releaseShellVideo(adopted: HTMLVideoElement): void {
  const video = found;
  found = null;
  if (!video) return;
  video.removeAttribute('id');
  // The browser's own controls served until the player's own were there.
  video.removeAttribute('controls');
  if (video === adopted) return;
  video.querySelectorAll('source').forEach((s) => s.remove());
  video.removeAttribute('src');
  video.load();
}
