import { createChannelUser, expect, signIn, test, trackPlayback, uniqueName, uploadVideo, videoRow, waitForPlaying } from './support/index.ts';

// Issue #13 item 1: an unlisted video plays by its link, yet search and the channel page do not show it to others.
test('the owner makes a video unlisted; another user plays it by its link but finds it neither by search nor on the channel', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const owner = await createChannelUser(request, 'Unlisted Creator');
  const tag = uniqueName('lantern').toLowerCase();
  const shown = await uploadVideo(owner, { title: `Lantern ${tag} for all`, seconds: 2 });
  const secret = await uploadVideo(owner, { title: `Lantern ${tag} by link`, seconds: 2, publish: false });

  await test.step('the owner chooses Unlisted in the edit dialog; the table says so', async () => {
    await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
    await page.getByRole('button', { name: `Edit ${secret.title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await dialog.getByRole('radio', { name: /^Unlisted/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const row = videoRow(page, secret.title);
    await expect(row.getByText('Unlisted')).toBeVisible();
  });

  const viewer = await createChannelUser(request, 'Link Holder');
  const other = await browser.newPage();
  await test.step('another user opens it by its link and it plays', async () => {
    await trackPlayback(other);
    await signIn(other, viewer.account, `/video/${secret._id}`);
    await expect(other.getByRole('heading', { name: secret.title, level: 1 })).toBeVisible();
    await waitForPlaying(other);
  });

  await test.step('search finds only the public one', async () => {
    const box = other.getByRole('searchbox', { name: 'Search' });
    await box.fill(`lantern ${tag}`);
    await box.press('Enter');
    const results = other.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('link', { name: shown.title }).first()).toBeVisible();
    await expect(results.getByRole('link', { name: secret.title })).toHaveCount(0);
  });

  await test.step('the channel page shows only the public one', async () => {
    await other.goto(`/channel/@${owner.user.userName}/videos`);
    const grid = other.getByRole('list', { name: 'Videos' });
    await expect(grid.getByRole('link', { name: shown.title }).first()).toBeVisible();
    await expect(grid.getByRole('link', { name: secret.title })).toHaveCount(0);
    await other.close();
  });
});
