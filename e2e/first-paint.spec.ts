import type { Video } from '@glimpse/contract';
import { createChannelUser, expect, test, trackPlayback, uniqueName, uploadVideo, waitForPlaying } from './support/index.ts';

// ADR 017: home, search and watch arrive filled; the app takes over and stays a single-page app.
const tag = uniqueName('fp');
let video: Video;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const channel = await createChannelUser(request, 'First Paint Studio');
  video = await uploadVideo(channel, { title: `Harbour lights ${tag}`, pattern: 'testsrc2' });
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
  // The app's stylesheet, loaded without blocking the shell's paint, applies since the first render's commit.
  await expect(page.locator('link[data-app-css]')).toHaveAttribute('media', 'all');
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

test("the watch page's video starts with the HTML, and the player adopts it instead of loading it again", async ({ page }) => {
  const masters: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/master.m3u8') && r.resourceType() === 'media') masters.push(r.url());
  });
  await trackPlayback(page);
  // The first element to start loading media: the shell's, before any script of the app has run.
  await page.addInitScript(() => {
    const w = window as unknown as { firstMedia?: EventTarget; videoSettledAt?: number };
    document.addEventListener('loadstart', (e) => (w.firstMedia ??= e.target!), true);
    // When the shell's video had its first frame or stopped loading: the app's scripts wait for it (ADR 017, addendum 8).
    for (const type of ['loadeddata', 'suspend']) document.addEventListener(type, () => (w.videoSettledAt ??= performance.now()), true);
  });
  await page.goto(`/video/${video._id}`);
  // The app's player (its controls), playing the very element the HTML started.
  await expect(page.getByRole('region', { name: 'Video player' }).getByRole('button', { name: 'Pause' })).toBeVisible();
  await waitForPlaying(page, 1);
  expect(await page.evaluate(() => document.querySelectorAll('video').length)).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { firstMedia?: EventTarget }).firstMedia === document.querySelector('[role="region"] video'))).toBe(true);
  expect(await page.evaluate(() => document.getElementById('glimpse-shell-video'))).toBeNull();
  expect(masters).toHaveLength(1);
  // The HTML preloaded the start rung's and the audio's playlists, init and first segments; the
  // player's own requests for them came from the browser's cache (nothing transferred).
  const { preloaded, played } = await page.evaluate(() => {
    const hrefs = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]'), (l) => l.href);
    const media = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return { preloaded: hrefs, played: media.filter((e) => hrefs.includes(e.name) && e.initiatorType === 'video').map((e) => e.transferSize) };
  });
  expect(preloaded.map((u) => u.replace(/^.*\/hls\//, '')).sort()).toEqual(['180p/index.m3u8', '180p/init_1.mp4', '180p/seg_00000.m4s', 'audio/index.m3u8', 'audio/init_0.mp4', 'audio/seg_00000.m4s']);
  expect(played.length).toBeGreaterThanOrEqual(preloaded.length);
  expect(played.every((bytes) => bytes === 0)).toBe(true);
  // No script of the app was requested before the video had its first frame (or stopped loading).
  const { settledAt, scriptsFrom } = await page.evaluate(() => ({
    settledAt: (window as unknown as { videoSettledAt?: number }).videoSettledAt ?? NaN,
    scriptsFrom: Math.min(...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => /\/assets\/[^/]+\.js$/.test(e.name)).map((e) => e.startTime)),
  }));
  expect(Number.isFinite(scriptsFrom)).toBe(true);
  expect(scriptsFrom).toBeGreaterThanOrEqual(settledAt);
});
