import type { Video } from '@glimpse/contract';
import { captionBox, createChannelUser, expect, expectAxeClean, screenshotWidths, test, trackPlayback, uniqueName, uploadVideo, waitForPlaying } from './support/index.ts';

let chaptered: Video;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const channel = await createChannelUser(request, 'Chapter Studio');
  // 35 s: three chapters of at least 10 s each (the last one runs to the end).
  chaptered = await uploadVideo(channel, {
    title: uniqueName('Chaptered clip '),
    description: ['A clip in three parts.', '', '0:00 Opening', '0:12 Colour bars', '0:24 Closing words'].join('\n'),
    seconds: 35,
    pattern: 'smptebars',
  });
});

test('a timestamp in the description is a link: a click plays from there, brings the player into view and focuses its seek bar', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 700 });
  await trackPlayback(page);
  await page.goto(`/video/${chaptered._id}`);
  await waitForPlaying(page);
  const player = page.getByRole('region', { name: 'Video player' });
  const link = page.getByRole('link', { name: 'Play from 0:24' });
  await expect(link).toHaveAttribute('href', `/video/${chaptered._id}?t=24`);
  // Scrolled so that the link shows and the player does not.
  await link.evaluate((a) => a.scrollIntoView({ block: 'end' }));
  await page.mouse.wheel(0, 400);
  await expect(player).not.toBeInViewport({ ratio: 0.9 });
  await link.click();
  await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(24);
  await expect(page.getByRole('slider', { name: 'Seek' })).toBeFocused();
  await expect(player).toBeInViewport({ ratio: 0.9 });
  expect(new URL(page.url()).search).toBe('');
});

test('a description with timestamps gives chapters on the seek bar and under the video; 2x doubles the clock; the controls are axe-clean', async ({ page }) => {
  await trackPlayback(page);
  await page.goto(`/video/${chaptered._id}`);
  await waitForPlaying(page);
  const video = page.locator('video');

  await test.step('chapter list and seek-bar markers', async () => {
    const list = page.getByRole('region', { name: 'Chapters' });
    await expect(list.getByRole('button')).toHaveText([/0:00\s*Opening/, /0:12\s*Colour bars/, /0:24\s*Closing words/]);
    await expect(page.locator('[data-chapter-marker]')).toHaveCount(2);
    await list.getByRole('button', { name: /Colour bars/ }).click();
    await expect(list.getByRole('button', { name: /Colour bars/ })).toHaveAttribute('aria-current', 'true');
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThanOrEqual(12);
    await expect(page.getByRole('slider', { name: 'Seek' })).toHaveAttribute('aria-valuetext', /Colour bars$/);
  });

  await test.step('every control is labelled and axe-clean, the shortcuts overlay too', async () => {
    await page.getByRole('slider', { name: 'Seek' }).focus();
    await expectAxeClean(page, '[aria-label="Video player"]', 'section[aria-labelledby="chapters-title"]');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expectAxeClean(page, '[role="dialog"]');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  await test.step('theatre mode widens the player at 1440 px; on a phone the player stays at the top', async () => {
    const player = page.getByRole('region', { name: 'Video player' });
    await page.setViewportSize({ width: 1440, height: 900 });
    const beside = (await player.boundingBox())!.width;
    await page.keyboard.press('t');
    await expect(page.getByRole('button', { name: 'Theatre mode' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await player.boundingBox())!.width).toBeGreaterThan(beside + 300);
    await screenshotWidths(page, 'watch-theatre', { widths: [1440], ready: async (p) => expect(p.getByRole('region', { name: 'Chapters' })).toBeVisible() });
    await page.keyboard.press('t');
    await screenshotWidths(page, 'watch-chapters', { widths: [360], ready: async (p) => expect(p.getByRole('region', { name: 'Chapters' })).toBeVisible() });
    await page.setViewportSize({ width: 360, height: 480 });
    // Every control fits on the bar at 360 px (the last one too).
    await expect.poll(async () => {
      const last = (await page.getByRole('button', { name: 'Full screen' }).boundingBox())!;
      return last.x + last.width;
    }).toBeLessThanOrEqual(360);
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    // Under the 56 px top bar.
    await expect.poll(async () => Math.round((await player.boundingBox())!.y)).toBe(56);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await test.step('2x: the clock advances about twice as fast as wall time', async () => {
    await page.getByRole('combobox', { name: 'Playback speed' }).selectOption('2x');
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 1;
      return v.play();
    });
    await waitForPlaying(page, 1.5);
    // Measured over 2.5 s of wall time (at 2x that is 5 s of the clip).
    const rate = await video.evaluate(
      (v: HTMLVideoElement) =>
        new Promise<number>((resolve) => {
          const wall0 = performance.now();
          const clip0 = v.currentTime;
          const tick = () => {
            const wall = (performance.now() - wall0) / 1000;
            if (wall >= 2.5) resolve((v.currentTime - clip0) / wall);
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    expect(rate).toBeGreaterThan(1.6);
    expect(rate).toBeLessThan(2.4);
    // Remembered for the next video (and this one after a reload).
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Playback speed' })).toHaveValue('2');
  });
});

// Issue 34 item 1: the browser draws the cues at the bottom of the video, where the control bar is.
test('captions rise above the control bar while it shows and go back down when it hides', async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = await createChannelUser(request, 'Caption Lift');
  const clip = await uploadVideo(owner, { title: uniqueName('Lifted captions '), seconds: 30 });
  await owner.send('post', `/videos/${clip._id}/captions/en`, { label: 'English', text: 'WEBVTT\n\n00:00:00.000 --> 00:00:30.000\nA caption all the way through\n' }, 200);
  await page.setViewportSize({ width: 1000, height: 800 });
  await trackPlayback(page);
  await page.goto(`/video/${clip._id}`);
  await waitForPlaying(page);
  const video = page.locator('video');
  const seek = page.getByRole('slider', { name: 'Seek' });
  // The shortcut, so that no control of the bar keeps the focus (which shows the bar).
  await page.keyboard.press('c');
  await page.mouse.move(0, 0);
  // The track loads and its cue is laid out a moment after the shortcut.
  await expect.poll(() => captionBox(page), { message: 'a cue on screen' }).not.toBeNull();
  /** The cue's bottom edge above the seek bar's top (> 0: clear of the bar), and the video's bottom below the cue's. */
  const gaps = async () => {
    const [cue, bar, frame] = await Promise.all([captionBox(page), seek.boundingBox(), video.boundingBox()]);
    expect(cue, 'a cue on screen').not.toBeNull();
    return { aboveBar: Math.round(bar!.y - cue!.bottom), aboveVideoBottom: Math.round(frame!.y + frame!.height - cue!.bottom) };
  };

  await test.step('playing, the pointer away: the bar hides and the captions sit at the bottom', async () => {
    await expect.poll(async () => (await gaps()).aboveVideoBottom).toBeLessThanOrEqual(2);
  });
  await test.step('the pointer over the video shows the bar: the captions move up, smoothly', async () => {
    const frame = (await video.boundingBox())!;
    await page.mouse.move(frame.x + frame.width / 2, frame.y + frame.height / 3);
    await expect.poll(async () => (await gaps()).aboveBar).toBeGreaterThanOrEqual(0);
    expect((await captionBox(page))!.transition).not.toBe('0s');
    await page.mouse.move(0, 0);
    await expect.poll(async () => (await gaps()).aboveVideoBottom).toBeLessThanOrEqual(2);
  });
  await test.step('paused, the bar stays and so do the captions above it', async () => {
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    await expect.poll(async () => (await gaps()).aboveBar).toBeGreaterThanOrEqual(0);
  });
  await test.step('on a phone the bar always shows: the captions stay above it while playing', async () => {
    await page.setViewportSize({ width: 360, height: 720 });
    await video.evaluate((v: HTMLVideoElement) => v.play());
    const lifted = async () => expect.poll(async () => (await gaps()).aboveBar).toBeGreaterThanOrEqual(0);
    await lifted();
    await screenshotWidths(page, 'captions-playing', { widths: [360], ready: lifted });
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    await screenshotWidths(page, 'captions-paused', { widths: [800], ready: lifted });
  });
});
