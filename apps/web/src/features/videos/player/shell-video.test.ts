import { afterEach, describe, expect, it, vi } from 'vitest';
import { HLS_TYPE, SHELL_VIDEO_ID, SHELL_VIDEO_WAIT_MS } from '@glimpse/contract/first-paint';
import { settled } from '@/test/settled.ts';
import { shellVideoStarted } from './shell-video.ts';

/** The watch shell's video, loading (jsdom plays nothing: its state is set by hand). */
function shellVideo(state: { readyState?: number; networkState?: number } = {}): HTMLVideoElement {
  document.body.innerHTML = `<div id="root"><video id="${SHELL_VIDEO_ID}" autoplay controls playsinline><source src="/media/v/hls/master.m3u8" type="${HLS_TYPE}" /></video></div>`;
  const video = document.querySelector('video')!;
  Object.defineProperty(video, 'readyState', { value: state.readyState ?? HTMLMediaElement.HAVE_NOTHING, configurable: true });
  Object.defineProperty(video, 'networkState', { value: state.networkState ?? HTMLMediaElement.NETWORK_LOADING, configurable: true });
  return video;
}

describe('shellVideoStarted', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('resolves at once without a shell video, or when it has its first frame or no playable source already', async () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div id="root"><p>Home</p></div>';
    expect(await settled(shellVideoStarted())).toBe(true);
    shellVideo({ readyState: HTMLMediaElement.HAVE_CURRENT_DATA });
    expect(await settled(shellVideoStarted())).toBe(true);
    shellVideo({ networkState: HTMLMediaElement.NETWORK_NO_SOURCE });
    expect(await settled(shellVideoStarted())).toBe(true);
  });

  it.each(['loadeddata', 'suspend'])('waits for the first frame, or for the video to stop loading (%s)', async (type) => {
    vi.useFakeTimers();
    const video = shellVideo();
    const started = shellVideoStarted();
    video.dispatchEvent(new Event('progress'));
    expect(await settled(started)).toBe(false);
    video.dispatchEvent(new Event(type));
    expect(await settled(started)).toBe(true);
  });

  it("stops waiting when the browser cannot play the source (its error does not bubble)", async () => {
    vi.useFakeTimers();
    const video = shellVideo();
    const started = shellVideoStarted();
    expect(await settled(started)).toBe(false);
    video.querySelector('source')!.dispatchEvent(new Event('error'));
    expect(await settled(started)).toBe(true);
  });

  it('gives up waiting after the limit', async () => {
    vi.useFakeTimers();
    shellVideo();
    const started = shellVideoStarted();
    await vi.advanceTimersByTimeAsync(SHELL_VIDEO_WAIT_MS - 1);
    expect(await settled(started)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(started)).toBe(true);
  });
});
