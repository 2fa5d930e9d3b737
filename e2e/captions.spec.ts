import { createChannelUser, expect, expectAxeClean, screenshotWidths, signIn, test, uniqueName, uploadVideo } from './support/index.ts';

const SRT = '1\n00:00:00,500 --> 00:00:02,000\nHello captions\n\n2\n00:00:02,500 --> 00:00:03,800\n<i>Second</i> cue\n';

test('the owner uploads an SRT in the edit dialog; the player has its cues and CC shows them', async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = await createChannelUser(request, 'Caption Creator');
  const title = uniqueName('Captioned ');
  const video = await uploadVideo(owner, { title, seconds: 4 });

  await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const captions = page.getByRole('dialog', { name: 'Edit video' }).getByRole('region', { name: 'Captions' });
  await expect(captions.getByText('No captions yet. Add an SRT or WebVTT file below.')).toBeVisible();
  await captions.getByLabel('Caption file (SRT or WebVTT)').setInputFiles({ name: 'english.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT) });
  await captions.getByLabel('Language tag').fill('en');
  await captions.getByLabel('Caption label').fill('English');
  await captions.getByRole('button', { name: 'Upload captions' }).click();
  await expect(captions.getByRole('button', { name: 'Delete English captions' })).toBeVisible();
  await screenshotWidths(page, 'captions-dialog', { ready: async () => expect(captions).toBeVisible() });
  await expectAxeClean(page, '[role="dialog"]');

  // A second language through the API: the Subtitles/CC menu lists languages when there are two or more.
  await owner.send('post', `/videos/${video._id}/captions/fr`, { label: 'Français', text: 'WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nBonjour\n' }, 200);

  await page.goto(`/video/${video._id}`);
  await page.getByLabel('Subtitles/CC').selectOption('English');
  // A text track per caption (hls.js adds none of its own); English shows, its cues at the SRT's times.
  const cues = () =>
    page.evaluate(() => {
      const tracks = document.querySelector('video')!.textTracks;
      const track = tracks[0]!;
      return { count: tracks.length, modes: Array.from(tracks).map((t) => `${t.language}:${t.mode}`), cues: Array.from(track.cues ?? []).map((c) => [c.startTime, c.endTime, (c as VTTCue).text]) };
    });
  await expect.poll(cues).toEqual({
    count: 2,
    modes: ['en:showing', 'fr:disabled'],
    cues: [
      [0.5, 2, 'Hello captions'],
      [2.5, 3.8, '<i>Second</i> cue'],
    ],
  });
  await page.evaluate(() => {
    const el = document.querySelector('video')!;
    el.pause();
    el.currentTime = 1;
  });
  await expect
    .poll(() => page.evaluate(() => Array.from(document.querySelector('video')!.textTracks[0]!.activeCues ?? []).map((c) => (c as VTTCue).text)))
    .toEqual(['Hello captions']);
  await expectAxeClean(page, '[aria-label="Video player"]');
  // The Captions toggle turns them off, and the menu follows.
  await page.getByRole('button', { name: 'Captions' }).click();
  await expect(page.getByLabel('Subtitles/CC')).toHaveValue('');
});
