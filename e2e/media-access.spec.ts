import type { Page } from '@playwright/test';
import { createChannelUser, expect, publish, signIn, test, trackPlayback, uniqueName, uploadVideo, waitForPlaying } from './support/index.ts';

/**
 * Every answer to a media request of one video the page makes (hls.js playlists and segments,
 * poster, storyboard); other videos' thumbnails (similar videos) are theirs to answer.
 */
function mediaAnswers(page: Page, videoId: string): { url: string; status: number; cache: string | undefined }[] {
  const seen: { url: string; status: number; cache: string | undefined }[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith(`/media/videos/${videoId}/`)) seen.push({ url: url.pathname, status: res.status(), cache: res.headers()['cache-control'] });
  });
  return seen;
}

// ADR 011: the same player, through the private links of its owner and the public links of everyone.
test('the owner plays an unpublished video from private links; once published anyone plays it from public links that die when it is unpublished', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await createChannelUser(request, 'Private Creator');
  const video = await uploadVideo(owner, { title: uniqueName('Private preview '), seconds: 4, publish: false });

  await test.step('the owner plays it before it is published, every file private and never stored', async () => {
    const seen = mediaAnswers(page, video._id);
    await trackPlayback(page);
    await signIn(page, owner.account, `/video/${video._id}`);
    await waitForPlaying(page);
    expect(seen.some((s) => s.url.endsWith('.m4s'))).toBe(true);
    // 206: a browser that plays HLS itself (the player's first engine, playback-engine.ts) asks in ranges.
    expect(seen.filter((s) => (s.status !== 200 && s.status !== 206) || s.cache !== 'private, no-store')).toEqual([]);
  });

  const visitor = await browser.newPage();
  await test.step('a visitor cannot open it: the video page falls back to home (spec §8)', async () => {
    await visitor.goto(`/video/${video._id}`);
    await expect(visitor).toHaveURL(/\/$/);
    await expect(visitor.locator('video')).toHaveCount(0);
  });

  const seen = mediaAnswers(visitor, video._id);
  await test.step('published: the visitor plays it, every file public and immutable (the master playlist, which names the captions, revalidated)', async () => {
    await publish(owner, video._id);
    await trackPlayback(visitor);
    await visitor.goto(`/video/${video._id}`);
    await waitForPlaying(visitor);
    expect(seen.some((s) => s.url.endsWith('.m4s'))).toBe(true);
    const expected = (url: string) => (url.endsWith('/hls/master.m3u8') ? 'public, no-cache' : 'public, max-age=31536000, immutable');
    expect(seen.filter((s) => (s.status !== 200 && s.status !== 206) || s.cache !== expected(s.url))).toEqual([]);
  });

  await test.step('unpublished again: the URLs the visitor played no longer answer', async () => {
    await publish(owner, video._id, false);
    for (const { url } of seen) expect((await request.get(url)).status(), url).toBe(404);
    await visitor.close();
  });
});
