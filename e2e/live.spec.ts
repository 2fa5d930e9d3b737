import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LiveWithKey } from '@glimpse/contract';
import { adminUser, createChannelUser, expect, rtmpPort, test, trackPlayback, uniqueName, waitForPlaying } from './support/index.ts';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server');

/** Pushes a test pattern and a tone over RTMP in real time with the bundled engine, as OBS would. */
function push(url: string, seconds: number): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/rtmp-push.ts', url, String(seconds)], { cwd: SERVER_DIR, stdio: 'ignore' });
    child.on('close', (code) => resolve(code ?? -1));
  });
}

test('a viewer waits for a live, Chromium plays its HLS as it is pushed over RTMP, sees another viewer\'s chat comment without a reload, goes back in the live window and jumps to live, and is told when it has ended', async ({ page, request }) => {
  test.setTimeout(150_000);
  const admin = await adminUser(request);
  await admin.send('patch', '/admin/settings', { livesEnabled: true });
  const creator = await createChannelUser(request, 'Live Studio');
  const title = uniqueName('Launch live ');
  const { live, streamKey } = await creator.send<LiveWithKey>('post', '/lives', { title }, 201);

  await trackPlayback(page);
  await page.goto(`/live/${live._id}`);
  await expect(page.getByText('Waiting for the stream to start')).toBeVisible();

  const pushed = push(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, 36);
  // The page notices the start by itself (no reload) and plays the live.
  await expect(page.getByLabel('On air now')).toHaveText('LIVE', { timeout: 20_000 });
  await waitForPlaying(page, 1);
  const played = await page.locator('video').evaluate((v: HTMLVideoElement) => ({ width: v.videoWidth, time: v.currentTime }));
  expect(played.width).toBeGreaterThan(0);

  // Live chat: another viewer's comment reaches this page without a reload.
  const fan = await createChannelUser(request, 'Live Fan');
  await expect(page.getByRole('heading', { name: 'Live chat' })).toBeVisible();
  await fan.send('post', `/comments/live/${live._id}`, { content: 'Hello from the chat!' }, 201);
  await expect(page.getByText('Hello from the chat!')).toBeVisible({ timeout: 10_000 });

  // DVR: once the window holds enough, the viewer goes back to its start and stays there (hls.js
  // does not pull them to the edge), then "Jump to live" brings the player back near the edge.
  const video = page.locator('video');
  const behindEdge = () => video.evaluate((v: HTMLVideoElement) => v.seekable.end(v.seekable.length - 1) - v.currentTime);
  const jump = page.getByRole('button', { name: 'Jump to live' });
  await expect(jump).toHaveAttribute('data-dimmed', 'true');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.seekable.end(v.seekable.length - 1) - v.seekable.start(0)), { timeout: 30_000 }).toBeGreaterThan(16);
  const back = await video.evaluate((v: HTMLVideoElement) => (v.currentTime = v.seekable.start(0) + 1));
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(back + 2);
  expect(await behindEdge()).toBeGreaterThan(10);
  await expect(jump).not.toHaveAttribute('data-dimmed');
  await jump.click();
  await expect.poll(behindEdge, { timeout: 10_000 }).toBeLessThan(6);
  await waitForPlaying(page, back + 10);
  await expect(jump).toHaveAttribute('data-dimmed', 'true');

  expect(await pushed).toBe(0);
  await expect(page.getByText('The live has ended')).toBeVisible({ timeout: 30_000 });
});
