import type { Page } from '@playwright/test';

declare global {
  interface Window {
    /** Number of 'playing' events seen on any media element since the page loaded. */
    __glimpsePlaying?: number;
  }
}

/** Counts 'playing' events (they do not bubble, so listen in the capture phase); call before page.goto. */
export async function trackPlayback(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__glimpsePlaying = 0;
    document.addEventListener('playing', () => (window.__glimpsePlaying = (window.__glimpsePlaying ?? 0) + 1), true);
  });
}

/** Waits until the page's <video> fired 'playing' and its clock moves past `seconds`. */
export async function waitForPlaying(page: Page, seconds = 0.5): Promise<void> {
  await page.waitForFunction(
    (min) => {
      const video = document.querySelector('video');
      return (window.__glimpsePlaying ?? 0) > 0 && video !== null && !video.paused && video.currentTime > min;
    },
    seconds,
    { timeout: 30_000 },
  );
}
