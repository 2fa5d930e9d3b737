import type { Page } from '@playwright/test';
import type { Video, VideoResult } from '@glimpse/contract';
import {
  createChannelUser,
  expect,
  loginThroughUi,
  newAccount,
  screenshotWidths,
  test,
  toastsGone,
  trackPlayback,
  uniqueName,
  uploadVideo,
  verificationLink,
  waitForPlaying,
} from './support/index.ts';

// A word no other test uses, so the search finds exactly the seeded videos.
const tag = uniqueName('zq');
let seeded: Video[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const channel = await createChannelUser(request, 'Glimpse Studio');
  // Sequential: the transcode worker takes one job at a time anyway.
  seeded = [
    await uploadVideo(channel, { title: `Ocean sunrise ${tag}`, pattern: 'testsrc2', frequency: 440 }),
    // Long enough to resume from the middle (the player skips the first and last 5 s).
    await uploadVideo(channel, { title: `Mountain trail ${tag}`, pattern: 'smptebars', frequency: 660, seconds: 20 }),
  ];
});

/** What must be on screen before a watch-page screenshot: the player frame and the details. */
async function watchReady(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('video')).toBeVisible();
}

test('a visitor registers, verifies, logs in, searches, watches, likes, comments, replies and plays from a new playlist', async ({ page, request }) => {
  const account = newAccount('Ada Lovelace');
  const [first, second] = seeded;
  await trackPlayback(page);

  await test.step('register through the UI', async () => {
    await page.goto('/register');
    await page.getByLabel('Name').fill(account.fullName);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText('An email has been sent to your email address. Please verify your email address.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('verify through the outbox link', async () => {
    const link = await verificationLink(account.email);
    await page.goto(link.pathname + link.search);
    await expect(page.getByText('Email Verified successfully')).toBeVisible();
  });

  await test.step('log in, home lists the seeded videos', async () => {
    await loginThroughUi(page, account);
    // Other specs' videos may come first (home is sorted by views): scroll until the next pages load it.
    const listed = (p: Page) =>
      expect(async () => {
        await p.mouse.wheel(0, 4000);
        await expect(p.getByRole('link', { name: first!.title })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 30_000 });
    await listed(page);
    await screenshotWidths(page, 'home', { ready: listed });
  });

  await test.step('search from the top bar', async () => {
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill(`ocean ${tag}`);
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/search\\?searchText=ocean(\\+|%20)${tag}&t=\\d+`));
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('link', { name: first!.title })).toBeVisible();
    await screenshotWidths(page, 'search', {
      ready: async (p) => expect(p.getByRole('list', { name: 'Search results' }).getByRole('link', { name: first!.title })).toBeVisible(),
    });
    await results.getByRole('link', { name: first!.title }).click();
  });

  await test.step('open and play the video', async () => {
    await expect(page).toHaveURL(new RegExp(`/video/${first!._id}$`));
    await expect(page.getByRole('heading', { level: 1, name: first!.title })).toBeVisible();
    await waitForPlaying(page);
    // hls.js drives the player (MSE), so the renditions are offered.
    const quality = page.getByRole('combobox', { name: 'Quality' });
    await expect(quality.getByRole('option')).toHaveText(['Auto', '180p']);
    await quality.selectOption('180p');
    await waitForPlaying(page, 1);
    // Playback start counts the view (spec: once playback starts).
    await expect.poll(async () => ((await request.get(`/api/v1/videos/${first!._id}`).then((r) => r.json())) as { data: VideoResult }).data.video.views).toBe(1);
  });

  await test.step('like it', async () => {
    const like = page.getByRole('button', { name: /^Like, / });
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(like).toHaveText('1');
  });

  await test.step('comment and reply', async () => {
    await page.getByRole('textbox', { name: 'Add a comment' }).fill('What a calm sunrise.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.getByRole('article', { name: `Comment by ${account.fullName}` }).filter({ hasText: 'What a calm sunrise.' });
    await expect(comment).toBeVisible();
    await expect(page.getByRole('heading', { name: '1 Comment' })).toBeVisible();

    await comment.getByRole('button', { name: 'Reply' }).click();
    await page.getByRole('textbox', { name: 'Add a reply' }).fill('Agreed, the colours are lovely.');
    await page.getByRole('button', { name: 'Reply', exact: true }).last().click();
    await expect(page.getByText('Agreed, the colours are lovely.')).toBeVisible();
    await expect(page.getByRole('button', { name: '1 reply' })).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('heading', { name: '2 Comments' })).toBeVisible();
  });

  await test.step('watch page screenshots', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotWidths(page, 'watch', { ready: watchReady });
  });

  const playlistName = uniqueName('Sunrise picks ');
  await test.step('save it to a new playlist', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save to playlist' });
    await expect(dialog.getByText("You haven't created any playlist.")).toBeVisible();
    await dialog.getByLabel('New playlist name').fill(playlistName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText(`Saved to ${playlistName} successfully`)).toBeVisible();
    await expect(dialog.getByRole('checkbox', { name: playlistName })).toBeChecked();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('add the second video to it through its checkbox', async () => {
    await page.getByRole('region', { name: 'Similar videos' }).getByRole('link', { name: second!.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: second!.title })).toBeVisible();
    // The same text as the first save's toast: let that one go first.
    await toastsGone(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save to playlist' });
    await dialog.getByRole('checkbox', { name: playlistName }).check();
    await expect(page.getByText(`Saved to ${playlistName} successfully`)).toBeVisible();
    await page.keyboard.press('Escape');
  });

  await test.step('play from the playlist: it advances to the next video at the end', async () => {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Playlists' }).click();
    await page.getByRole('link', { name: `Play all: ${playlistName}` }).click();
    await expect(page).toHaveURL(new RegExp(`/video/${first!._id}\\?listId=`));
    const panel = page.getByRole('region', { name: `Playlist ${playlistName}` });
    await expect(panel.getByText('1/2')).toBeVisible();
    await expect(panel.locator('[aria-current="true"]')).toContainText(first!.title);
    await waitForPlaying(page);
    // The first clip is 4 s long: its end moves on to the second, still in the list.
    await expect(page).toHaveURL(new RegExp(`/video/${second!._id}\\?listId=`), { timeout: 30_000 });
    await expect(panel.getByText('2/2')).toBeVisible();
    await waitForPlaying(page);
    await screenshotWidths(page, 'watch-playlist', { ready: async (p) => expect(p.getByRole('region', { name: `Playlist ${playlistName}` })).toBeVisible() });
    await panel.getByRole('button', { name: 'Collapse playlist' }).click();
    await expect(panel.getByText('End of Playlist')).toBeVisible();
  });
});

test('the player answers its shortcuts, resumes where it paused and previews the storyboard; a reload keeps the session', async ({ page, request }) => {
  const viewer = await createChannelUser(request, 'Grace Hopper');
  const [first, second] = seeded;
  await trackPlayback(page);
  await loginThroughUi(page, viewer.account);

  await test.step('reload: the refresh cookie restores the session', async () => {
    await page.goto(`/video/${first!._id}`);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Add a comment' })).toBeVisible();
    await waitForPlaying(page);
  });

  const video = page.locator('video');
  await test.step('k pauses and resumes, m mutes', async () => {
    await page.keyboard.press('k');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeAttached();
    await page.keyboard.press('k');
    await waitForPlaying(page);
    await page.keyboard.press('m');
    await expect(page.getByRole('button', { name: 'Unmute' })).toBeAttached();
  });

  await test.step('l jumps 10 s ahead; after a pause a reload resumes there', async () => {
    await page.goto(`/video/${second!._id}`);
    await waitForPlaying(page);
    await page.keyboard.press('l');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(10);
    await page.keyboard.press('k');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await page.reload();
    await waitForPlaying(page);
    // Checked at once: played from 0 it would take 10 s to get there.
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(10);
  });

  await test.step('hovering the seek bar shows a storyboard frame', async () => {
    const seek = page.getByRole('slider', { name: 'Seek' });
    const box = (await seek.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const frame = page.locator('[style*="background-image"]');
    await expect(frame).toBeVisible();
    await expect.poll(() => frame.evaluate((el) => getComputedStyle(el).backgroundImage)).toMatch(/^url\(".*\/media\//);
  });
});

test('search filters: duration narrows the videos, the channel type lists channels and resets the rest', async ({ page }) => {
  await page.goto(`/search?searchText=${tag}&t=1`);
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('heading', { level: 2 })).toHaveCount(2);
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Over 15 minutes' }).click();
  await expect(page.getByText('No videos found')).toBeVisible();
  await page.getByRole('button', { name: 'Under 4 minutes' }).click();
  await expect(results.getByRole('heading', { level: 2 })).toHaveCount(2);

  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill('Glimpse Studio');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // A new search keeps the filter panel open but starts from the default filters.
  await expect(page.getByRole('button', { name: 'Any', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Channel', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Any', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Any', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(results.getByRole('link', { name: /Glimpse Studio/ })).toContainText('2 videos');
});
