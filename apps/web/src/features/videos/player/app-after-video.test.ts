import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_AFTER_VIDEO_SCRIPT, APP_SCRIPTS_ELEMENT_ID, HLS_TYPE, SHELL_VIDEO_ID, SHELL_VIDEO_WAIT_MS } from '@glimpse/contract/first-paint';

/**
 * The watch shell's inline loader (the server puts it after the shell, ADR 017 addendum 8), run as
 * the browser runs it. jsdom plays nothing and runs no module script: the video's state and events
 * are set by hand, and what the loader did is read from the head.
 */
function shell({ hls = true, readyState = HTMLMediaElement.HAVE_NOTHING as number } = {}) {
  document.head.innerHTML = '';
  document.body.innerHTML = `<div id="root"><video id="${SHELL_VIDEO_ID}" autoplay controls playsinline><source src="/media/v/hls/master.m3u8" type="${HLS_TYPE}" /></video></div><script type="application/json" id="${APP_SCRIPTS_ELEMENT_ID}">["/assets/main-1.js","/assets/shared-1.js","/assets/watch-1.js"]</script>`;
  const video = document.querySelector('video')!;
  Object.defineProperty(video, 'readyState', { value: readyState, configurable: true });
  vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (hls && type === HLS_TYPE ? 'maybe' : ''));
  new Function(APP_AFTER_VIDEO_SCRIPT)();
  return video;
}

/** The module script and preloads the loader added, in order. */
const loaded = () =>
  [...document.head.children].map((el) =>
    el instanceof HTMLScriptElement ? `script ${el.type} ${el.getAttribute('src')}` : `${el.getAttribute('rel')} ${el.getAttribute('href')}`,
  );
const APP = ['script module /assets/main-1.js', 'modulepreload /assets/shared-1.js', 'modulepreload /assets/watch-1.js'];

describe("the watch shell's loader of the app", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  it.each(['loadeddata', 'suspend'])('loads the app once the video has its first frame or stops loading (%s), once', (type) => {
    vi.useFakeTimers();
    const video = shell();
    video.dispatchEvent(new Event('progress'));
    expect(loaded()).toEqual([]);
    video.dispatchEvent(new Event(type));
    expect(loaded()).toEqual(APP);
    video.dispatchEvent(new Event('loadeddata'));
    vi.advanceTimersByTime(SHELL_VIDEO_WAIT_MS);
    expect(loaded()).toEqual(APP);
    // Crossorigin as Vite's own tags, so the module map and the preloads match.
    for (const el of document.head.children) expect(el.getAttribute('crossorigin')).toBe('');
  });

  it("loads the app when the browser cannot play the source (the <source>'s error does not bubble)", () => {
    const video = shell();
    video.querySelector('source')!.dispatchEvent(new Event('error'));
    expect(loaded()).toEqual(APP);
  });

  it('loads the app after the limit when the video is slow', () => {
    vi.useFakeTimers();
    shell();
    vi.advanceTimersByTime(SHELL_VIDEO_WAIT_MS - 1);
    expect(loaded()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(loaded()).toEqual(APP);
  });

  it('loads the app at once where the browser has no HLS of its own (hls.js plays there), or the frame is already in', () => {
    shell({ hls: false });
    expect(loaded()).toEqual(APP);
    shell({ readyState: HTMLMediaElement.HAVE_CURRENT_DATA });
    expect(loaded()).toEqual(APP);
  });
});
