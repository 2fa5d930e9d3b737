import type { NotificationSettings } from '@glimpse/contract';
import { createChannelUser, expect, expectAxeClean, mailWithHeaders, signIn, test, uniqueName, uploadVideo } from './support/index.ts';

// Issue #14: a mailed notification crosses real SMTP (STARTTLS, AUTH: support/smtp-sink.ts), and
// the unsubscribe link in its body turns that type of mail off.
test('a subscriber who wants new videos at once is mailed when the channel publishes; the link in the mail turns those mails off', async ({ page, request }) => {
  const channel = await createChannelUser(request, 'Mail Channel');
  const fan = await createChannelUser(request, 'Mail Fan');
  await fan.send('post', `/subscriptions/toggle/${channel.user._id}`);

  await test.step('the fan asks for new videos at once in Settings -> Notifications', async () => {
    await signIn(page, fan.account, `/user/@${fan.user.userName}/notifications`);
    const newVideos = page.getByRole('group', { name: 'New videos from my subscriptions' });
    // The choice shows once the server has saved it.
    await newVideos.getByRole('radio', { name: 'At once' }).click();
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    await expect(newVideos.getByRole('radio', { name: 'At once' })).toBeChecked();
    await expectAxeClean(page, 'main');
    expect((await fan.get<{ settings: NotificationSettings }>('/notifications/settings')).settings.newVideo).toBe('instant');
  });

  const title = uniqueName('Mailed premiere ');
  await uploadVideo(channel, { title, seconds: 2, pattern: 'testsrc2' });

  const mail = await test.step('the mail reaches the SMTP server, with one-click unsubscribe headers', async () => {
    const found = await mailWithHeaders(fan.account.email, new RegExp(title));
    expect(found.headers).toMatch(/^list-unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/v1\/notifications\/unsubscribe\?token=[^>]+>/im);
    expect(found.headers).toMatch(/^list-unsubscribe-post: List-Unsubscribe=One-Click/im);
    return found;
  });

  await test.step('the link in the body asks first, then turns new-video mails off', async () => {
    const link = new URL(/https?:\/\/\S+\/unsubscribe\?token=[^\s"<>]+/.exec(mail.text)![0].replace(/&amp;/g, '&'));
    await page.goto(link.pathname + link.search);
    await expect(page.getByText('New videos from my subscriptions')).toBeVisible();
    // Opening the link changed nothing (mail scanners follow links).
    expect((await fan.get<{ settings: NotificationSettings }>('/notifications/settings')).settings.newVideo).toBe('instant');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByText('Done: you will no longer get these mails.')).toBeVisible();
    const { settings } = await fan.get<{ settings: NotificationSettings }>('/notifications/settings');
    expect(settings).toMatchObject({ newVideo: 'off', comment: 'instant' });
  });
});
