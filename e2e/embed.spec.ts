import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Video } from '@glimpse/contract';
import { baseURL, createChannelUser, expect, expectAxeClean, screenshotWidths, test, uniqueName, uploadVideo } from './support/index.ts';

let video: Video;
/**
 * Another site: its own server on another port, so another origin. On loopback like the app's
 * server: Chromium refuses a public page's frames of a local address (local network access).
 */
let otherSite: Server;
let otherOrigin: string;

test.afterAll(() => new Promise<void>((resolve) => (otherSite ? otherSite.close(() => resolve()) : resolve())));

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const channel = await createChannelUser(request, 'Embed Studio');
  video = await uploadVideo(channel, { title: uniqueName('Embeddable clip '), seconds: 6 });
  otherSite = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Blog</title><h1>My blog</h1>
      <iframe src="${baseURL}/embed/${video._id}?autoplay=1&loop=1" width="560" height="315" title="Video" allow="autoplay; fullscreen"></iframe>`);
  });
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
});

test('another site frames the embed, which autoplays muted; the watch link opens a new tab', async ({ page }) => {
  await page.goto(`${otherOrigin}/post.html`);
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL).origin);
  const frame = page.frameLocator('iframe');
  const link = frame.getByRole('link', { name: video.title });
  await expect(link).toHaveAttribute('href', `/video/${video._id}`);
  await expect(link).toHaveAttribute('target', '_blank');
  const player = frame.locator('video');
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => ({ playing: !v.paused && v.currentTime > 0.5, muted: v.muted, loop: v.loop })), { timeout: 30_000 })
    .toEqual({ playing: true, muted: true, loop: true });
});

test('with third-party storage blocked the embed plays, pauses and unmutes without an uncaught error', async ({ page }) => {
  // Chromium with third-party cookies blocked throws a SecurityError on any storage access of the frame.
  await page.addInitScript(() => {
    if (window.top === window) return;
    const errors: string[] = [];
    (window as unknown as { storageErrors: string[] }).storageErrors = errors;
    addEventListener('error', (e) => errors.push(e.message));
    addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
    const blocked = () => {
      throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
    };
    Object.defineProperty(window, 'localStorage', { get: blocked, configurable: true });
    Object.defineProperty(window, 'sessionStorage', { get: blocked, configurable: true });
  });
  await page.goto(`${otherOrigin}/blocked.html`);
  const frame = page.frameLocator('iframe');
  const player = frame.locator('video');
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 1), { timeout: 30_000 }).toBe(true);
  const storageState = () => {
    try {
      return localStorage ? 'open' : 'none';
    } catch {
      return 'blocked';
    }
  };
  expect(await player.evaluate(storageState), 'storage is blocked in the frame').toBe('blocked');
  await frame.getByRole('button', { name: 'Unmute' }).click();
  await frame.getByRole('button', { name: 'Pause' }).first().click();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => ({ paused: v.paused, muted: v.muted }))).toEqual({ paused: true, muted: false });
  expect(await player.evaluate(() => (window as unknown as { storageErrors: string[] }).storageErrors)).toEqual([]);
});

test('a plain HTTP request of a watch page (no JavaScript) carries its title and link-preview tags', async ({ request }) => {
  const res = await request.get(`/video/${video._id}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain(`<title>${video.title} - Glimpse</title>`);
  expect(html).toContain(`<meta property="og:title" content="${video.title}" />`);
  expect(html).toContain(`<meta property="og:video" content="${baseURL}/embed/${video._id}" />`);
  expect(res.headers()['x-frame-options']).toBe('SAMEORIGIN');
  const embed = await request.get(`/embed/${video._id}`);
  expect(embed.headers()['x-frame-options']).toBeUndefined();
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *');
});

test("the watch page's Share dialog gives the link and the embed code, and is axe-clean", async ({ page }) => {
  await page.goto(`/video/${video._id}`);
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  await expect(dialog.getByRole('textbox', { name: 'Link' })).toHaveValue(`${baseURL}/video/${video._id}`);
  await expect(dialog.getByRole('textbox', { name: 'Embed code' })).toHaveValue(new RegExp(`^<iframe src="${baseURL}/embed/${video._id}"`));
  await expectAxeClean(page, '[role="dialog"]');
  await screenshotWidths(page, 'share-dialog', { ready: async (p) => expect(p.getByRole('dialog', { name: 'Share' })).toBeVisible() });
});
