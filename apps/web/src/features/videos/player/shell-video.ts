import { HLS_TYPE, SHELL_VIDEO_ID, SHELL_VIDEO_WAIT_MS } from '@glimpse/contract/first-paint';

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

/** The shell video's events after which waiting for its first frame is over: it has it, or will not get it soon. */
const SETTLED = ['loadeddata', 'suspend', 'error'] as const;

/**
 * Resolves once the shell's video has its first frame (`loadeddata`), or has stopped loading without
 * one (`suspend`: a browser that does not autoplay it loads its metadata only), or cannot play its
 * source (`error`, fired at the <source>); at once without a shell video. On a phone the app's
 * first render is the page's heaviest work, and it would hold up the video's own steps on the main
 * thread (ADR 017, addendum 7). Bounded: the app never waits long.
 */
export function shellVideoStarted(limitMs = SHELL_VIDEO_WAIT_MS): Promise<void> {
  const video = document.getElementById(SHELL_VIDEO_ID);
  if (!(video instanceof HTMLVideoElement) || video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA || video.networkState === HTMLMediaElement.NETWORK_NO_SOURCE)
    return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, limitMs);
    function done() {
      clearTimeout(timer);
      // Capture: a <source>'s error does not bubble.
      for (const type of SETTLED) video!.removeEventListener(type, done, true);
      resolve();
    }
    for (const type of SETTLED) video.addEventListener(type, done, true);
  });
}
