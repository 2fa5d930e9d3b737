/**
 * The watch shell's native video (public/shell-video.js, ADR 017): where the browser plays HLS
 * itself, it plays from the server's HTML before the app has loaded. main.tsx holds it where it is
 * while the first render replaces the shell; the player then lays it over its own element, under
 * the controls, until that element plays (or shows a frame) from the same point, and drops it.
 * Every move happens within one task, so the element never counts as removed and keeps playing.
 */
interface ShellVideo {
  videoId: string;
  video: HTMLVideoElement;
  /** The element's host: the video itself sits in the host's closed shadow root. */
  host: HTMLElement;
}

declare global {
  interface Window {
    __glimpseShellVideo?: ShellVideo;
  }
}

export interface TakenShellVideo {
  /** Where the shell's playback has got to. */
  readonly currentTime: number;
  /** Stops it and takes it off the page. */
  retire: () => void;
}

/** A shell video never taken (the visitor left the page first) is dropped after this long. */
const HOLD_MS = 15_000;

let held: (ShellVideo & { holder: HTMLElement; timer: number }) | null = null;

function stop({ video, host }: ShellVideo, holder?: HTMLElement): void {
  video.pause();
  video.removeAttribute('src');
  video.load();
  host.remove();
  holder?.remove();
}

function dropHeld(): void {
  if (held) stop(held, held.holder);
  held = null;
}

/** Before the first render: keeps the shell's video on screen, over the place it had, in a holder of its own. */
export function holdShellVideo(win: Window = window): void {
  const shell = win.__glimpseShellVideo;
  delete win.__glimpseShellVideo;
  if (!shell || shell.video.error) return;
  const doc = win.document;
  const rect = shell.host.getBoundingClientRect();
  const holder = doc.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = `position:absolute;left:${rect.left + win.scrollX}px;top:${rect.top + win.scrollY}px;width:${rect.width}px;height:${rect.height}px;z-index:40;pointer-events:none;overflow:hidden`;
  doc.body.append(holder);
  holder.append(shell.host);
  held = { ...shell, holder, timer: win.setTimeout(dropHeld, HOLD_MS) };
}

/** The held shell video if it is this video's, moved over the player's own element; any other is dropped. */
export function takeShellVideo(videoId: string, own: HTMLVideoElement): TakenShellVideo | null {
  const shell = held;
  if (!shell) return null;
  held = null;
  clearTimeout(shell.timer);
  if (shell.videoId !== videoId) {
    stop(shell, shell.holder);
    return null;
  }
  // Right after the player's element: the controls, later in the box, stay on top.
  own.after(shell.host);
  shell.holder.remove();
  return {
    get currentTime() {
      return shell.video.currentTime;
    },
    retire: () => stop(shell),
  };
}
