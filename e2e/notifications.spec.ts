import { createChannelUser, expect, expectAxeClean, expectNoPageOverflow, publish, screenshotWidths, signIn, test, uniqueName, uploadVideo } from './support/index.ts';

test("a subscriber's bell lights up live when the channel publishes; opening the notification reads it", async ({ page, request }) => {
  const channel = await createChannelUser(request, 'Bell Channel');
  const fan = await createChannelUser(request, 'Bell Fan');
  await fan.send('post', `/subscriptions/toggle/${channel.user._id}`);
  const title = uniqueName('Fresh upload ');
  const video = await uploadVideo(channel, { title, seconds: 2, pattern: 'testsrc2', publish: false });

  // The fan's page is open before the video is published: the count must arrive over the stream.
  await signIn(page, fan.account, '/help');
  const bar = page.getByRole('banner');
  await expect(bar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await publish(channel, video._id);
  const bell = bar.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible({ timeout: 5_000 });
  await expect(bell).toHaveText('1');

  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const item = panel.getByRole('link', { name: new RegExp(`^Unread: Bell Channel uploaded "${title}"`) });
  await expect(item).toBeVisible();
  await expectAxeClean(page, 'header');
  await screenshotWidths(page, 'notifications-panel', { ready: async (p) => (await expect(item).toBeVisible(), await expectNoPageOverflow(p)) });

  await item.click();
  await expect(page).toHaveURL(new RegExp(`/video/${video._id}$`));
  await expect(panel).toBeHidden();
  await expect(bar.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Notifications', exact: true })).toHaveText('');

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('link', { name: new RegExp(`^Bell Channel uploaded "${title}"`) })).toBeVisible();
  await expectAxeClean(page, 'main');
  await screenshotWidths(page, 'notifications', { ready: expectNoPageOverflow });
});
