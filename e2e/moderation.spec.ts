import type { Browser, Page } from '@playwright/test';
import type { Video } from '@glimpse/contract';
import { adminUser, API, createChannelUser, expect, screenshotWidths, signIn, test, uniqueName, uploadVideo, type ApiUser } from './support/index.ts';

/** A second logged-in browser (its own cookies), for the owner or the moderator beside the reporter's page. */
async function browserOf(browser: Browser, user: ApiUser, path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, user.account, path);
  return page;
}

// Issue #12 items 3 and 4, ADR 012.
test('a user reports a video; a moderator takes it down; it disappears for others and its media is refused; the owner appeals; the moderator restores it', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = await createChannelUser(request, 'Reported Creator');
  const reporter = await createChannelUser(request, 'Careful Viewer');
  const admin = await adminUser(request);
  const title = uniqueName('Okapi reel ');
  const video = await uploadVideo(owner, { title, seconds: 4 });
  const playlist = (await reporter.send<{ playlist: { _id: string } }>('post', '/playlists', { name: 'Okapis', videoId: video._id }, 201)).playlist._id;
  const publicVideo = (await reporter.get<{ video: Video }>(`/videos/${video._id}`)).video;
  const mediaUrls = [publicVideo.thumbnail!.url, publicVideo.videoFile.url!, `${API}/videos/video/${video._id}.mp4`];
  for (const url of mediaUrls) expect((await request.get(url)).status(), url).toBe(200);

  // What another user (the reporter) gets on every listing and on the video itself.
  const readsOf = async () => {
    const reads = [
      await reporter.request.get(`${API}/videos`, { headers: reporter.headers }),
      await reporter.request.get(`${API}/videos`, { headers: reporter.headers, params: { query: title } }),
      await reporter.request.get(`${API}/users/video/${owner.user.userName}`, { headers: reporter.headers }),
      await reporter.request.get(`${API}/playlists/${playlist}`, { headers: reporter.headers }),
    ];
    const watch = await reporter.request.get(`${API}/videos/${video._id}`, { headers: reporter.headers });
    return { listed: (await Promise.all(reads.map((r) => r.text()))).map((text) => text.includes(video._id)), watch: watch.status() };
  };
  expect(await readsOf()).toEqual({ listed: [true, true, true, true], watch: 200 });

  await test.step('the reporter reports it from the ⋮ menu of the watch page', async () => {
    await signIn(page, reporter.account, `/video/${video._id}`);
    await page.getByRole('button', { name: 'More video actions' }).click();
    await page.getByRole('menuitem', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report video' });
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByLabel('Details (optional)').fill('Links to a shop in every frame');
    await screenshotWidths(page, 'report-dialog', { ready: async () => expect(dialog).toBeVisible() });
    await dialog.getByRole('button', { name: 'Report' }).click();
    await expect(page.getByText('Thanks, the moderators will look at it')).toBeVisible();
    const queue = await admin.get<{ data: { targetId: string; reportCount: number }[] }>('/moderation/reports', { state: 'open', kind: 'video' });
    expect(queue.data.find((i) => i.targetId === video._id)?.reportCount).toBe(1);
  });

  await test.step('taken down: gone from home, search, channel, playlist and watch for others; its media refused', async () => {
    await admin.send('post', `/moderation/targets/video/${video._id}/take-down`, { reason: 'Spam links' });
    expect(await readsOf()).toEqual({ listed: [false, false, false, false], watch: 410 });
    for (const url of mediaUrls) expect((await request.get(url)).status(), url).toBe(404);
    // The reporter's watch page, and a logged-out visitor's, say it was removed and stay on its URL.
    await page.goto(`/video/${video._id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This video was removed by the moderators.' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/video/${video._id}$`));
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`/video/${video._id}`);
    await expect(visitor.getByRole('heading', { level: 1, name: 'This video was removed by the moderators.' })).toBeVisible();
    await expect(visitor).toHaveURL(new RegExp(`/video/${video._id}$`));
    await visitor.context().close();
    await page.goto('/my-reports');
    await expect(page.getByRole('list', { name: 'My reports' }).getByText('Action taken')).toBeVisible();
  });

  await test.step('the owner sees the notice on the watch page and appeals', async () => {
    const ownerPage = await browserOf(browser, owner, `/video/${video._id}`);
    const notice = ownerPage.getByRole('status', { name: 'Moderation notice' });
    await expect(notice).toContainText('Removed by the moderators: Spam links');
    await notice.getByRole('button', { name: 'Appeal' }).click();
    await notice.getByLabel('Your appeal').fill('These are my own shop videos, not spam.');
    await screenshotWidths(ownerPage, 'takedown-notice', { ready: async () => expect(notice).toBeVisible() });
    await notice.getByRole('button', { name: 'Send appeal' }).click();
    await expect(notice.getByText('Your appeal was sent to the moderators.')).toBeVisible();
    await ownerPage.context().close();
  });

  await test.step('the moderator finds the appeal in the queue and restores the video', async () => {
    const modPage = await browserOf(browser, admin, '/admin/reports');
    await modPage.getByLabel('State').selectOption('appealed');
    const card = modPage.getByRole('article', { name: `Reported video: ${title}` });
    await expect(card).toContainText('These are my own shop videos, not spam.');
    await screenshotWidths(modPage, 'moderation-queue', { ready: async () => expect(card).toBeVisible() });
    await card.getByRole('button', { name: 'Restore' }).click();
    await modPage.getByRole('dialog', { name: 'Restore it' }).getByRole('button', { name: 'Restore' }).click();
    await expect(modPage.getByText('Restore: done')).toBeVisible();
    await expect.poll(readsOf).toEqual({ listed: [true, true, true, true], watch: 200 });
    await modPage.getByRole('link', { name: 'Moderation log' }).click();
    // Each entry names its target, links to it while it exists, and says when to the minute.
    const restored = modPage.getByRole('table', { name: 'Moderation log' }).getByRole('row').filter({ hasText: 'Restored' }).filter({ hasText: title });
    await expect(restored.getByRole('link', { name: title })).toHaveAttribute('href', `/video/${video._id}`);
    await expect(restored.locator('time')).toHaveText(/\d{1,2}:\d{2}/);
    await screenshotWidths(modPage, 'moderation-log', { ready: async () => expect(restored).toBeVisible() });
    await modPage.context().close();
  });
});

test('suspension ends an open session within one request', async ({ page, request }) => {
  const user = await createChannelUser(request, 'Soon Suspended');
  const admin = await adminUser(request);
  await signIn(page, user.account, '/');
  await admin.send('post', `/moderation/users/${user.user._id}/suspend`, { reason: 'Spam account' });
  // The next thing the user does in the page: open their dashboard from the side menu.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('link', { name: 'Log In' }).or(page.getByRole('button', { name: 'Log In' }))).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log Out' })).toHaveCount(0);
  const again = await request.post(`${API}/auths/login`, { data: { email: user.account.email, password: user.account.password } });
  expect(again.status()).toBe(403);
  expect((await again.json()).message).toContain('Spam account');
});
