/**
 * Plays `video` from `seconds` (a timestamp link in the description or a comment), then brings its
 * player into view and focuses its seek bar: a keyboard or screen reader user lands on the player,
 * which reads the new position out, and its shortcuts work at once.
 */
export function playFrom(video: HTMLVideoElement, seconds: number): void {
  video.currentTime = seconds;
  void video.play().catch(() => undefined);
  const player = video.closest<HTMLElement>('[data-player]');
  player?.scrollIntoView({ block: 'nearest' });
  player?.querySelector<HTMLElement>('[data-seek-bar]')?.focus({ preventScroll: true });
}
