import type { VideoAnalytics } from '@glimpse/contract';
import { createChannelUser, expect, expectAxeClean, expectNoPageOverflow, screenshotWidths, signIn, test, trackPlayback, uniqueName, uploadVideo, waitForPlaying } from './support/index.ts';

const WATCHED_S = 20;

// Issue #15: the player reports what it played; the worker rolls it up; the owner reads it.
test('a viewer watches 20 s of a 30 s video; the owner sees one view, ~20 s of watch time and full retention up to there', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const owner = await createChannelUser(request, 'Analytics Creator');
  const video = await uploadVideo(owner, { title: uniqueName('Measured clip '), seconds: 30 });
  const viewer = await createChannelUser(request, 'Analytics Viewer');

  await test.step(`a viewer plays the first ${WATCHED_S} s on the watch page, then pauses`, async () => {
    const heartbeats: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v1/analytics/heartbeat') && r.request().method() === 'POST') heartbeats.push(r.status());
    });
    await trackPlayback(page);
    await signIn(page, viewer.account, `/video/${video._id}`);
    await waitForPlaying(page);
    await page.waitForFunction((s) => (document.querySelector('video')?.currentTime ?? 0) >= s, WATCHED_S, { timeout: 60_000 });
    // Reports go every few seconds while playing, and what is left at once on pause (keepalive).
    await page.evaluate(() => document.querySelector('video')?.pause());
    await expect.poll(() => heartbeats.length, { message: 'the player reported' }).toBeGreaterThan(0);
    expect(heartbeats.every((status) => status === 202)).toBe(true);
  });

  let answer: VideoAnalytics | undefined;
  await test.step('the rolled-up figures reach the API (the worker rolls up periodically)', async () => {
    await expect
      .poll(
        async () => {
          answer = await owner.get<VideoAnalytics>(`/analytics/videos/${video._id}`, { range: '28d', tz: 'UTC' });
          // A rollup may run between two reports: the view shows before the last seconds do.
          return { views: answer.totals.views, watchedEnough: answer.totals.watchTimeSeconds >= WATCHED_S - 2 };
        },
        { message: 'the view and its watch time show up in analytics', timeout: 90_000, intervals: [1000, 2000, 5000] },
      )
      .toEqual({ views: 1, watchedEnough: true });
    const { totals, retention, sources } = answer!;
    expect(totals.watchTimeSeconds).toBeGreaterThanOrEqual(WATCHED_S - 2);
    expect(totals.watchTimeSeconds).toBeLessThanOrEqual(WATCHED_S + 2);
    // Opened by its address: no link of the app and no referrer.
    expect(sources.filter((s) => s.views > 0)).toEqual([{ source: 'direct', views: 1 }]);
    const early = retention.filter((p) => p.positionSeconds < WATCHED_S - 2);
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((p) => p.share === 1)).toBe(true);
    expect(retention.filter((p) => p.positionSeconds > WATCHED_S + 2).every((p) => p.share === 0)).toBe(true);
  });

  await test.step("the owner opens the video's analytics from the dashboard", async () => {
    const context = await browser.newContext();
    const ownerPage = await context.newPage();
    await signIn(ownerPage, owner.account, `/user/@${owner.user.userName}/dashboard`);
    await ownerPage.getByRole('link', { name: `Analytics for ${video.title}` }).click();
    await expect(ownerPage.getByRole('heading', { name: `Analytics: ${video.title}`, level: 1 })).toBeVisible();
    const summary = ownerPage.getByRole('list', { name: 'Summary' });
    await expect(summary.getByRole('listitem').first()).toHaveText('Views1');
    await expect(ownerPage.getByRole('table', { name: 'Audience retention' }).getByRole('row').nth(1)).toContainText('100%');
    await expect(ownerPage.getByTestId('line-chart').first().locator('svg .ct-line')).toBeVisible();
    await expectAxeClean(ownerPage, 'main');
    await screenshotWidths(ownerPage, 'video-analytics', { ready: (p) => expectNoPageOverflow(p), fullPage: true });
    await context.close();
  });
});
