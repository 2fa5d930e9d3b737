import type { Video } from '@glimpse/contract';
import { createChannelUser, expect, test, uniqueName, uploadVideo } from './support/index.ts';

// ADR 017: home, search and watch arrive filled; the app takes over and stays a single-page app.
const tag = uniqueName('fp');
let video: Video;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const channel = await createChannelUser(request, 'First Paint Studio');
  video = await uploadVideo(channel, { title: `Harbour lights ${tag}`, pattern: 'testsrc2', seconds: 12 });
});

test('home, search and watch show their content with no JavaScript at all', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/search?searchText=${tag}`);
  const card = page.getByRole('link', { name: `Harbour lights ${tag}` });
  await expect(card).toBeVisible();
  await expect(card.locator('img')).toHaveAttribute('src', video.thumbnail!.url);
  await page.goto(`/video/${video._id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Harbour lights ${tag}` })).toBeVisible();
  await expect(page.locator('.fp-player img')).toHaveAttribute('src', video.thumbnail!.url);
  await page.goto('/');
  await expect(page.getByRole('link', { name: `Harbour lights ${tag}` })).toBeVisible();
  // The search box works as a plain form.
  await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search\\?searchText=${tag}`));
  await expect(page.getByRole('link', { name: `Harbour lights ${tag}` })).toBeVisible();
  await context.close();
});

test("the watch page plays from the server's HTML before the app loads; the player takes over where it got to", async ({ page }) => {
  // Watch the shell's video, which sits in a closed shadow root (public/shell-video.js).
  await page.addInitScript(() => {
    const w = window as unknown as { shellVideos: HTMLVideoElement[]; stoppedAt?: number };
    w.shellVideos = [];
    const attach = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (init) {
      const root = attach.call(this, init);
      new MutationObserver(() => {
        for (const v of Array.from(root.querySelectorAll('video'))) {
          if (w.shellVideos.includes(v)) continue;
          w.shellVideos.push(v);
          // The last point it played (stopping it resets the clock).
          v.addEventListener('timeupdate', () => v.currentTime > 0 && (w.stoppedAt = v.currentTime));
        }
      }).observe(root, { childList: true });
      return root;
    };
  });
  // The app's entry arrives 3 s late, as on a slow phone.
  let held = true;
  await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
    if (held) await new Promise((r) => setTimeout(r, 3_000));
    await route.continue();
  });
  await page.goto(`/video/${video._id}`, { waitUntil: 'commit' });
  const shellTime = () => page.evaluate(() => (window as unknown as { shellVideos: HTMLVideoElement[] }).shellVideos[0]?.currentTime ?? 0);
  // Playing natively while the app has not rendered: no player in the page yet.
  await expect.poll(shellTime, { timeout: 10_000 }).toBeGreaterThan(0.5);
  expect(await page.getByRole('region', { name: 'Video player' }).count()).toBe(0);
  held = false;

  const player = page.locator('video');
  await expect(player).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => (window as unknown as { shellVideos: HTMLVideoElement[] }).shellVideos[0]?.isConnected)).toBe(false);
  // Stopped once the player had taken over, which went on from the shell's point, not from the start.
  const stoppedAt = await page.evaluate(() => (window as unknown as { stoppedAt?: number }).stoppedAt ?? 0);
  expect(stoppedAt).toBeGreaterThan(0.5);
  expect(await player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(stoppedAt - 1);
});

test('the app starts from the embedded answers and navigates without reloading', async ({ page }) => {
  const apiGets: string[] = [];
  const documents: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'document') documents.push(r.url());
    else if (r.url().includes('/api/v1/videos')) apiGets.push(r.url());
  });
  await page.goto(`/search?searchText=${tag}`);
  // The app's own screen (the shell has no Filters button).
  await expect(page.getByRole('button', { name: 'Filters' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: `Harbour lights ${tag}` }).first()).toBeVisible();
  await expect(page.locator('#glimpse-first-data')).toHaveCount(0);
  // The first page of results came with the HTML: the app did not ask for it again.
  expect(apiGets).toEqual([]);

  await page.evaluate(() => ((window as unknown as { spaMarker: number }).spaMarker = 1));
  await page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: `Harbour lights ${tag}` }).first().click();
  await expect(page).toHaveURL(new RegExp(`/video/${video._id}`));
  await expect(page.getByRole('heading', { level: 1, name: `Harbour lights ${tag}` })).toBeVisible();
  await expect(page.locator('video')).toBeVisible();
  // Same document: a client-side navigation, and the watch page fetched its data itself.
  expect(await page.evaluate(() => (window as unknown as { spaMarker?: number }).spaMarker)).toBe(1);
  expect(documents).toHaveLength(1);
  await expect.poll(() => apiGets.some((u) => u.includes(`/api/v1/videos/${video._id}`))).toBe(true);
});
