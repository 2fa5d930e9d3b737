import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdShellVideo, takeShellVideo } from './shell-video.ts';

/** What public/shell-video.js leaves behind: a video in a closed shadow root of a host in the shell's poster box. */
function shellVideo(videoId: string) {
  const box = document.createElement('div');
  document.body.append(box);
  const host = document.createElement('div');
  const video = document.createElement('video');
  host.attachShadow({ mode: 'closed' }).append(video);
  box.append(host);
  window.__glimpseShellVideo = { videoId, video, host };
  return { box, host, video };
}

function playerElement() {
  const box = document.createElement('div');
  const own = document.createElement('video');
  const controls = document.createElement('div');
  box.append(own, controls);
  document.body.append(box);
  return { box, own, controls };
}

describe('the watch shell video handed to the player', () => {
  // jsdom has no media playback.
  let pause: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
    document.body.replaceChildren();
  });

  it('is held outside the shell, then laid between the player element and its controls, and stopped when retired', () => {
    const shell = shellVideo('v1');
    shell.box.remove(); // the first render replaces the shell...
    holdShellVideo();
    expect(shell.host.isConnected).toBe(true); // ...but the held video stays on the page
    expect(window.__glimpseShellVideo).toBeUndefined();

    const player = playerElement();
    const taken = takeShellVideo('v1', player.own)!;
    expect([...player.box.children]).toEqual([player.own, shell.host, player.controls]);
    // The holder is gone: only the player's box holds it now.
    expect(document.body.querySelectorAll('[aria-hidden="true"]').length).toBe(0);
    expect(pause).not.toHaveBeenCalled();
    taken.retire();
    expect(pause).toHaveBeenCalled();
    expect(shell.host.isConnected).toBe(false);
  });

  it("drops another video's shell instead of showing it, and takes nothing twice", () => {
    const shell = shellVideo('v1');
    holdShellVideo();
    const player = playerElement();
    expect(takeShellVideo('v2', player.own)).toBeNull();
    expect(shell.host.isConnected).toBe(false);
    expect(takeShellVideo('v1', player.own)).toBeNull();
  });

  it('drops a held video the player never takes', () => {
    vi.useFakeTimers();
    const shell = shellVideo('v1');
    holdShellVideo();
    vi.advanceTimersByTime(15_000);
    expect(shell.host.isConnected).toBe(false);
    expect(takeShellVideo('v1', playerElement().own)).toBeNull();
  });

  it('holds nothing when the page has no shell video', () => {
    holdShellVideo();
    expect(takeShellVideo('v1', playerElement().own)).toBeNull();
  });
});
