import { adminUser, chooseFiles, createChannelUser, expect, makeClip, signIn, test } from './support/index.ts';

// The refused chunk is a 413: Chromium logs every failed request as a console error.
test.use({ allowedConsoleErrors: [/status of 413/] });

test('an upload over the quota is refused, and the upload dialog says so with the server\'s message', async ({ page, request }) => {
  const admin = await adminUser(request);
  const owner = await createChannelUser(request, 'Quota Creator');
  const clip = await makeClip({ seconds: 1 });
  // The e2e server is shared by every spec: the quota is set for this test only.
  await admin.send('patch', '/admin/settings', { quotaBytes: 1000 });
  try {
    await signIn(page, owner.account, `/user/@${owner.user.userName}/dashboard`);
    await expect(page.getByText('0.00 B of 1.00 KB used · 1.00 KB left')).toBeVisible();

    await page.getByRole('button', { name: 'Upload Video' }).click();
    const form = page.getByRole('dialog', { name: 'Upload Video' });
    await chooseFiles(form.getByRole('button', { name: 'Select file' }), clip.video);
    await chooseFiles(form.getByRole('button', { name: 'Choose your own image' }), clip.thumbnail);
    await form.getByLabel('Title').fill('Too much');
    await form.getByLabel('Description').fill('More than the instance allows.');
    await form.getByRole('button', { name: 'Upload', exact: true }).click();

    const progress = page.getByRole('dialog', { name: 'Upload failed' });
    // Nothing is used: the video alone is larger than the quota.
    await expect(progress.getByRole('alert')).toHaveText('This video is larger than your upload quota of 1 kB');
    await expect(page.getByText('No videos uploaded')).toBeVisible();
  } finally {
    await admin.send('patch', '/admin/settings', { quotaBytes: null });
  }
});
