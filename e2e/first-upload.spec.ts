import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from '@playwright/test';
import {
  API,
  chooseFiles,
  createChannelUser,
  emulateTheme,
  expect,
  expectAxeClean,
  expectNoPageOverflow,
  makeClip,
  padMp4,
  screenshotWidths,
  signIn,
  test,
  videoRow,
} from './support/index.ts';

const CHUNK = 3 * 1024 * 1024;

/** A chunk request of the upload (POST videos?uniqueId&chunkNumber&totalChunks). */
const chunkOf = (req: Request) => {
  const url = new URL(req.url());
  return req.method() === 'POST' && url.pathname === `${API}/videos` ? { uniqueId: url.searchParams.get('uniqueId')!, n: Number(url.searchParams.get('chunkNumber')) } : null;
};

// Issue 34: a newcomer with only a video file. The spec's rule stays (thumbnail, title and description
// before anything is sent as a video); the form makes each step easy and says what is missing.
test('a first upload: the video goes as soon as it is picked, a frame of it is the thumbnail, the title comes from its name, and the form says what is missing', async ({ page, request }) => {
  test.setTimeout(150_000);
  const owner = await createChannelUser(request, 'First Creator');
  const clip = await makeClip({ seconds: 4, pattern: 'testsrc2' });
  // Three chunks: two can go before the form is done, the last one carries it.
  await padMp4(clip.video, 2 * CHUNK + 100_000);
  const video = path.join(path.dirname(clip.video), 'my_first-video.mp4');
  const wrongVideo = path.join(path.dirname(clip.video), 'not_this_one.mp4');
  await copyFile(clip.video, video);
  await copyFile(clip.video, wrongVideo);

  const chunks: { uniqueId: string; n: number }[] = [];
  const cancels: string[] = [];
  page.on('request', (req) => {
    const chunk = chunkOf(req);
    if (chunk) chunks.push(chunk);
    const cancel = /\/videos\/uploads\/([^/?]+)$/.exec(new URL(req.url()).pathname);
    if (req.method() === 'DELETE' && cancel) cancels.push(cancel[1]!);
  });
  // The last chunk is held until released, to see the progress dialog before it ends.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/v1\/videos\?/, async (route) => {
    if (chunkOf(route.request())?.n === 2) await held;
    await route.continue();
  });

  await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
  await page.getByRole('button', { name: 'Upload Video' }).click();
  const form = page.getByRole('dialog', { name: 'Upload Video' });
  const hint = form.getByRole('status');
  const upload = form.getByRole('button', { name: 'Upload', exact: true });
  /** The line above Upload (a live region) says it, and it is the disabled button's description. */
  const expectMissing = async (text: string) => {
    await expect(hint).toHaveText(text);
    await expect(upload).toBeDisabled();
    await expect(upload).toHaveAccessibleDescription(text);
  };

  await test.step('the empty form says everything it needs', async () => {
    await expectMissing('To upload, choose a video file, choose a thumbnail, add a title, and add a description.');
  });

  await test.step('a file picked by mistake, then changed: its upload is given up on the server', async () => {
    await chooseFiles(form.getByRole('button', { name: 'Select file' }), wrongVideo);
    await expect(form.getByText(/sent\. The rest goes when you press Upload\./)).toBeVisible();
    const wrongId = chunks[0]!.uniqueId;
    await chooseFiles(form.getByRole('button', { name: 'Change file' }), video);
    await expect.poll(() => cancels).toEqual([wrongId]);
    // The DELETE has been sent; the server answers 404 once it has been carried out.
    await expect.poll(async () => (await request.get(`${API}/videos/uploads/${wrongId}`, { headers: owner.headers })).status()).toBe(404);
  });

  await test.step('picked: the title comes from the file name and the video goes at once', async () => {
    await expect(form.getByRole('textbox', { name: 'Title' })).toHaveValue('my first video');
    await expect(form.getByText(/my_first-video\.mp4 \(6\.\d\d MB\)/)).toBeVisible();
    const ahead = form.getByRole('progressbar', { name: 'Sent ahead' });
    await expect.poll(async () => Number(await ahead.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(90);
    await expect(form.getByText(/^9\d% sent\. The rest goes when you press Upload\.$/)).toBeVisible();
    await expectMissing('To upload, choose a thumbnail and add a description.');
  });

  await test.step('three frames of the video are offered as thumbnails; one is chosen from the keyboard', async () => {
    const frames = form.getByRole('radio', { name: /^Frame / });
    await expect(frames).toHaveCount(3);
    await expect(form.getByRole('radio', { name: 'Frame near the start (0:00)' })).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Frame from the middle (0:02)' })).toBeVisible();
    await expect(form.getByRole('radio', { name: 'Frame near the end (0:03)' })).toBeVisible();
    // Decoded in this browser from the local file: real pictures, nothing fetched.
    for (const img of await form.getByRole('img', { name: /^Frame / }).all()) {
      expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight, el.src.slice(0, 5)])).toEqual([320, 180, 'blob:']);
    }
    await form.getByRole('radio', { name: 'Frame near the start (0:00)' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(form.getByRole('radio', { name: 'Frame from the middle (0:02)' })).toBeChecked();
    await expect(form.getByRole('button', { name: 'Choose your own image' })).toBeVisible();
    await expectMissing('To upload, add a description.');
    // The line and the disabled button, in the dark theme.
    await emulateTheme(page, 'dark');
    await expectAxeClean(page, '[role="dialog"]');
    await screenshotWidths(page, 'upload-missing-dark', {
      ready: async () => {
        await upload.scrollIntoViewIfNeeded();
        await expect(hint).toBeInViewport();
      },
    });
    await emulateTheme(page, 'light');
  });

  await test.step('the description completes it; nothing of the form was sent yet', async () => {
    await form.getByRole('textbox', { name: 'Description' }).fill('My very first upload: a test pattern.');
    await expect(hint).toHaveText('Ready to upload.');
    await expect(upload).toBeEnabled();
    await expectAxeClean(page, '[role="dialog"]');
    await screenshotWidths(page, 'upload-first', {
      ready: async (p) => {
        await expect(form.getByRole('radio', { name: /^Frame / })).toHaveCount(3);
        await expectNoPageOverflow(p);
      },
    });
    const current = chunks.filter((c) => c.uniqueId !== chunks[0]!.uniqueId);
    expect(current.map((c) => c.n).sort()).toEqual([0, 1]);
  });

  const progress = page.getByRole('dialog', { name: /Upload/ });
  await test.step('Upload: the progress dialog starts well along, then ends at 100%', async () => {
    await upload.click();
    await expect(progress.getByRole('heading', { name: 'Uploading Video...' })).toBeVisible();
    expect(Number(await progress.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(90);
    release();
    await expect(progress.getByRole('heading', { name: 'Uploaded Video' })).toBeVisible();
    await expect(progress.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100');
    await progress.getByRole('button', { name: 'Finish' }).click();
    await expect(videoRow(page, 'my first video')).toBeVisible();
  });

  await test.step('the video has the chosen frame (a JPEG) as its thumbnail', async () => {
    const { videos } = await owner.get<{ videos: { title: string; thumbnail: { url: string } }[] }>('/dashboard/channel-videos');
    const uploaded = videos.find((v) => v.title === 'my first video')!;
    expect(uploaded.thumbnail.url).toMatch(/\/thumb-[^/]+\.jpg/);
    const picture = await request.get(uploaded.thumbnail.url, { headers: owner.headers });
    expect(picture.headers()['content-type']).toBe('image/jpeg');
  });

  await test.step('closing the form after picking a file gives its upload up', async () => {
    await page.unroute(/\/api\/v1\/videos\?/);
    const before = new Set(chunks.map((c) => c.uniqueId));
    await page.getByRole('button', { name: 'Upload Video' }).click();
    await chooseFiles(form.getByRole('button', { name: 'Select file' }), wrongVideo);
    await expect(form.getByText(/sent\. The rest goes when you press Upload\./)).toBeVisible();
    const closed = chunks.find((c) => !before.has(c.uniqueId))!.uniqueId;
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
    await expect.poll(() => cancels).toContain(closed);
    expect((await request.get(`${API}/videos/uploads/${closed}`, { headers: owner.headers })).status()).toBe(404);
  });
});
