import type { VideoResult } from '@glimpse/contract';
import {
  chooseFiles,
  createChannelUser,
  expect,
  expectNoPageOverflow,
  makeClip,
  makeImage,
  padMp4,
  screenshotWidths,
  setProfileImages,
  signIn,
  test,
  uniqueName,
  uploadVideo,
  videoRow,
} from './support/index.ts';

const CHUNK = 3 * 1024 * 1024;

test('a creator uploads a clip from the dashboard, waits for processing, publishes it and visitors see it', async ({ page, request, browser }) => {
  test.setTimeout(150_000);
  const owner = await createChannelUser(request, 'Studio Creator');
  const { userName } = owner.user;
  const [clip, avatar, cover] = await Promise.all([makeClip({ seconds: 3, pattern: 'smptebars' }), makeImage(256, 256, 'rgbtestsrc'), makeImage(1500, 300)]);
  // Just over two chunks, so the upload runs three chunk requests.
  await padMp4(clip.video, 2 * CHUNK + 200_000);
  await setProfileImages(owner, { avatar, cover });
  const title = uniqueName('Colour bars ');
  const dashboardPath = `/user/@${userName}/dashboard`;

  await signIn(page, owner.account, dashboardPath);
  await expect(page.getByRole('heading', { name: 'Welcome back, Studio Creator' })).toBeVisible();
  for (const stat of ['Total Views', 'Total Subscribers', 'Total Likes', 'Total Comments']) await expect(page.getByText(stat)).toBeVisible();
  await expect(page.getByText('No videos uploaded')).toBeVisible();

  // Hold the last chunk so the progress dialog is seen mid-upload; released once Finish was refused.
  // The other two go as soon as the file is picked (issue 34).
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let chunks = 0;
  await page.route(/\/api\/v1\/videos\?/, async (route) => {
    chunks += 1;
    if (new URL(route.request().url()).searchParams.get('chunkNumber') === '2') await held;
    await route.continue();
  });

  const form = page.getByRole('dialog', { name: 'Upload Video' });
  await test.step('fill the upload form', async () => {
    await page.getByRole('button', { name: 'Upload Video' }).click();
    await chooseFiles(form.getByRole('button', { name: 'Select file' }), clip.video);
    await expect(form.getByText(/clip\.mp4 \(6\.\d\d MB\)/)).toBeVisible();
    await chooseFiles(form.getByRole('button', { name: 'Choose your own image' }), clip.thumbnail);
    await expect(form.getByRole('radio', { name: 'Your image' })).toBeChecked();
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('Colour bars and a steady tone, uploaded through the dashboard.');
    await screenshotWidths(page, 'upload-form', { ready: async () => expect(form).toBeVisible() });
  });

  const progress = page.getByRole('dialog', { name: /Upload/ });
  await test.step('upload: the progress dialog refuses Finish until 100%', async () => {
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(progress.getByRole('heading', { name: 'Uploading Video...' })).toBeVisible();
    await expect(progress.getByText('clip.mp4')).toBeVisible();
    await expect(progress.getByText(/^6\.\d\d MB$/)).toBeVisible();
    await expect.poll(async () => Number(await progress.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await progress.getByRole('button', { name: 'Finish' }).click();
    await expect(page.getByText('Please wait for the video to finish uploading.')).toBeVisible();
    await screenshotWidths(page, 'upload-progress', { ready: async () => expect(progress).toBeVisible() });
    // Hide only closes the dialog; the upload goes on and the header button brings it back.
    await progress.getByRole('button', { name: 'Hide' }).click();
    await expect(progress).toBeHidden();
    await page.getByRole('button', { name: /^Uploading \d+%$/ }).click();
    await expect(progress.getByRole('heading', { name: 'Uploading Video...' })).toBeVisible();
    release();
    await expect(progress.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100');
    await expect(progress.getByText('100%')).toBeVisible();
    await expect(progress.getByRole('heading', { name: 'Uploaded Video' })).toBeVisible();
    await expect(page.getByText('Video uploaded successfully')).toBeVisible();
    expect(chunks).toBe(3);
    await page.unroute(/\/api\/v1\/videos\?/);
    await progress.getByRole('button', { name: 'Finish' }).click();
    await expect(progress).toBeHidden();
  });

  const row = videoRow(page, title);
  await test.step('processing shows in the table, then ready', async () => {
    await expect(row).toBeVisible();
    // The table asks again right after the upload; transcoding takes seconds, so progress shows first.
    await expect(row.getByRole('progressbar', { name: `Processing ${title}` })).toBeVisible();
    await expect(row.getByText(/^Processing \d+%$/)).toBeVisible();
    await expect(row.getByText('Ready', { exact: true })).toBeVisible({ timeout: 90_000 });
    await expect(row.getByText(/^\d{4}-\d{2}-\d{2}$/)).toBeVisible();
  });

  const visitor = await browser.newPage();
  await test.step('unpublished: visitors do not see it', async () => {
    await visitor.goto(`/channel/@${userName}/videos`);
    await expect(visitor.getByText('No videos uploaded')).toBeVisible();
  });

  await test.step('publish with the toggle', async () => {
    const toggle = row.getByRole('switch', { name: `Publish ${title}` });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(row.getByText('Published', { exact: true })).toBeVisible();
    await screenshotWidths(page, 'dashboard', {
      ready: async () => {
        await expect(row.getByText('Ready', { exact: true })).toBeVisible();
        await expectNoPageOverflow(page);
      },
      fullPage: true,
    });
  });

  await test.step('the public channel lists it', async () => {
    await visitor.goto(`/channel/@${userName}/videos`);
    await expect(visitor.getByRole('link', { name: title }).first()).toBeVisible();
    await expect(visitor.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await expect(visitor.getByText('1 video')).toBeVisible();
    await visitor.close();
  });

  await test.step('the owner sees it on their channel with the Dashboard button', async () => {
    await page.getByRole('link', { name: 'View channel' }).click();
    await expect(page).toHaveURL(new RegExp(`/channel/@${userName}/videos$`));
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
    await screenshotWidths(page, 'channel', {
      ready: async (p) => {
        await expect(p.getByRole('link', { name: title }).first()).toBeVisible();
        await expectNoPageOverflow(p);
      },
    });
  });
});

test('an upload interrupted by a page reload resumes with the chunks the server lacks', async ({ page, request }) => {
  const owner = await createChannelUser(request, 'Resuming Creator');
  const clip = await makeClip({ seconds: 2, pattern: 'rgbtestsrc' });
  await padMp4(clip.video, 2 * CHUNK + 100_000);
  const title = uniqueName('Resumed ');
  const sent: number[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (req.method() === 'POST' && url.pathname === '/api/v1/videos') sent.push(Number(url.searchParams.get('chunkNumber')));
  });
  // Chunk 1 of the first attempt never gets an answer: the reload cuts it off.
  let cutOff = true;
  await page.route(/\/api\/v1\/videos\?/, async (route) => {
    if (cutOff && new URL(route.request().url()).searchParams.get('chunkNumber') === '1') return; // left hanging
    await route.continue();
  });

  const fillAndUpload = async () => {
    await page.getByRole('button', { name: 'Upload Video' }).click();
    const form = page.getByRole('dialog', { name: 'Upload Video' });
    await chooseFiles(form.getByRole('button', { name: 'Select file' }), clip.video);
    await chooseFiles(form.getByRole('button', { name: 'Choose your own image' }), clip.thumbnail);
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('Sent in two sittings.');
    await form.getByRole('button', { name: 'Upload', exact: true }).click();
  };

  await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
  await fillAndUpload();
  // Chunks 0 and 1 travel together, in either order; the last one waits for them.
  await expect.poll(() => [...sent].sort()).toEqual([0, 1]);
  cutOff = false;
  await page.reload();
  await expect(page.getByText('No videos uploaded')).toBeVisible();
  sent.length = 0;

  await fillAndUpload();
  const progress = page.getByRole('dialog', { name: 'Uploaded Video' });
  await expect(progress.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100');
  // Chunk 0 was already on the server: only 1 and 2 travel again.
  expect(sent).toEqual([1, 2]);
  await progress.getByRole('button', { name: 'Finish' }).click();
  await expect(videoRow(page, title)).toBeVisible();
  await expect(videoRow(page, title).getByText('Ready', { exact: true })).toBeVisible({ timeout: 90_000 });
});

test('the dashboard counts a viewer\'s view, subscription, like and comment; the owner edits and deletes a video', async ({ page, request, browser }) => {
  const owner = await createChannelUser(request, 'Managing Creator');
  const viewer = await createChannelUser(request, 'Busy Viewer');
  const video = await uploadVideo(owner, { title: uniqueName('Before edit '), seconds: 2, pattern: 'testsrc' });
  await viewer.send('post', `/videos/${video._id}/views`, {});
  await viewer.send('post', `/subscriptions/toggle/${owner.user._id}`);
  await viewer.send('post', `/likes/video/${video._id}/like`);
  await viewer.send('post', `/comments/video/${video._id}`, { content: 'Lovely test pattern.' }, 201);
  const thumbnail = await makeImage(640, 360, 'smptebars');

  await test.step("the viewer's history and liked videos list it", async () => {
    const viewerPage = await browser.newPage();
    await signIn(viewerPage, viewer.account, '/history');
    await expect(viewerPage.getByRole('list', { name: 'Watch history' }).getByRole('link', { name: video.title }).first()).toBeVisible();
    await viewerPage.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Liked videos' }).click();
    await expect(viewerPage.getByRole('list', { name: 'Liked videos' }).getByRole('link', { name: video.title }).first()).toBeVisible();
    await viewerPage.close();
  });

  await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
  const stats = page.getByRole('list', { name: 'Channel stats' });
  for (const label of ['Total Views', 'Total Subscribers', 'Total Likes', 'Total Comments']) {
    await expect(stats.getByLabel(`${label}: 1`)).toBeVisible();
  }
  const row = videoRow(page, video.title);
  await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

  const renamed = uniqueName('After edit ');
  await test.step('edit: new title and thumbnail', async () => {
    await row.getByRole('button', { name: `Edit ${video.title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await dialog.getByLabel('Title').fill(renamed);
    await chooseFiles(dialog.getByRole('button', { name: 'Change thumbnail' }), thumbnail);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Video uploaded successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(videoRow(page, renamed)).toBeVisible();
    const fetched = (await owner.get<VideoResult>(`/videos/${video._id}`)).video;
    expect(fetched.title).toBe(renamed);
    expect(fetched.description).toBe(video.description);
    expect(fetched.thumbnail?.url).not.toBe(video.thumbnail?.url);
  });

  await test.step('delete after confirmation', async () => {
    await page.getByRole('button', { name: `Delete ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete video' });
    await expect(confirm).toContainText(renamed);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('No videos uploaded')).toBeVisible();
    expect((await request.get(`/api/v1/videos/${video._id}`)).status()).toBe(404);
  });
});
