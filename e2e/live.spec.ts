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

test('a viewer waits for a live, Chromium plays its HLS as it is pushed over RTMP, sees another viewer\'s chat comment without a reload, and is told when it has ended', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await adminUser(request);
  await admin.send('patch', '/admin/settings', { livesEnabled: true });
  const creator = await createChannelUser(request, 'Live Studio');
  const title = uniqueName('Launch live ');
  const { live, streamKey } = await creator.send<LiveWithKey>('post', '/lives', { title }, 201);

  await trackPlayback(page);
  await page.goto(`/live/${live._id}`);
  await expect(page.getByText('Waiting for the stream to start')).toBeVisible();

  const pushed = push(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, 14);
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

  expect(await pushed).toBe(0);
  await expect(page.getByText('The live has ended')).toBeVisible({ timeout: 30_000 });
});
