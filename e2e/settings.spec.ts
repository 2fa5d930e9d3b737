import {
  chooseFiles,
  createChannelUser,
  expect,
  expectNoPageOverflow,
  loginThroughUi,
  makeImage,
  screenshotWidths,
  signIn,
  test,
  uniqueName,
} from './support/index.ts';

test('the profile form refuses a taken user name with both toasts, then takes a free one and new images', async ({ page, request }) => {
  const [me, other] = await Promise.all([createChannelUser(request, 'Mia Mover'), createChannelUser(request, 'Otto Taken')]);
  const [avatar, cover] = await Promise.all([makeImage(256, 256, 'rgbtestsrc'), makeImage(1500, 300, 'testsrc')]);
  const userNameField = page.getByLabel('User name');

  await signIn(page, me.account, `/user/@${me.user.userName}/personal-information`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mia Mover' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(me.account.email);
  await expect(page.getByLabel('Email')).not.toBeEditable();

  await test.step('avatar and cover: preview, Cancel discards', async () => {
    await chooseFiles(page.getByRole('button', { name: 'Change avatar' }), avatar);
    await expect(page.getByText('New avatar selected: Save changes to upload, Cancel to discard.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText(/selected: Save changes/)).toHaveCount(0);
  });

  await test.step('a taken user name: 409 toasts with the suggestion, nothing changes', async () => {
    await userNameField.fill(other.user.userName);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('User name already exists')).toBeVisible();
    await expect(page.getByText(new RegExp(`^Available user name is '${other.user.userName}\\w+'$`))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/user/@${me.user.userName}/personal-information$`));
    expect((await me.get<{ user: { userName: string } }>('/users/me')).user.userName).toBe(me.user.userName);
  });

  const fresh = uniqueName('mia').toLowerCase();
  await test.step('a free user name, a new full name and both images in one Save', async () => {
    await page.getByLabel('Full name').fill('Mia Moved');
    await userNameField.fill(fresh);
    await chooseFiles(page.getByRole('button', { name: 'Change avatar' }), avatar);
    await chooseFiles(page.getByRole('button', { name: 'Change cover image' }), cover);
    await expect(page.getByText('New avatar and cover image selected: Save changes to upload, Cancel to discard.')).toBeVisible();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Avatar updated successfully')).toBeVisible();
    await expect(page.getByText('Cover Image updated successfully')).toBeVisible();
    await expect(page.getByText('Changes updated successfully')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/user/@${fresh}/personal-information$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Mia Moved' })).toBeVisible();
    await expect(page.getByText(`@${fresh}`, { exact: true })).toBeVisible();
    await expect(userNameField).toHaveValue(fresh);
  });

  await test.step('the new handle sticks: reload, top bar, public channel', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Mia Moved' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Cover image' })).toBeVisible();
    await screenshotWidths(page, 'settings', {
      ready: async (p) => {
        await expect(p.getByRole('heading', { level: 1, name: 'Mia Moved' })).toBeVisible();
        await expectNoPageOverflow(p);
      },
      fullPage: true,
    });
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Your Channel' }).click();
    await expect(page).toHaveURL(new RegExp(`/channel/@${fresh}/videos$`));
    // The old handle is free again and no longer names this channel.
    await page.goto(`/user/@${me.user.userName}/personal-information`);
    await expect(page.getByText('Please login to view your Channel.')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
});

test('a user changes the password and logs in with the new one', async ({ page, request }) => {
  const me = await createChannelUser(request, 'Paula Password');
  const newPassword = 'brand-new-secret-2';
  await signIn(page, me.account, `/user/@${me.user.userName}/change-password`);

  const current = page.getByLabel('Current password');
  const next = page.getByLabel('New password');
  const confirm = page.getByLabel('Confirm password');
  await test.step('rules show once a field is touched', async () => {
    await next.fill('short');
    await confirm.fill('different');
    await current.focus();
    await expect(page.getByText('New password must of be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await screenshotWidths(page, 'change-password', {
      ready: async (p) => {
        await expect(p.getByText('Passwords must match')).toBeVisible();
        await expectNoPageOverflow(p);
      },
    });
  });

  await test.step('a wrong current password is refused', async () => {
    await current.fill('not-my-password');
    await next.fill(newPassword);
    await confirm.fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByText('Current password is incorrect')).toBeVisible();
    await expect(page.getByText('Password updated successfully')).toHaveCount(0);
  });

  await test.step('the right one changes it', async () => {
    await current.fill(me.account.password);
    await next.fill(newPassword);
    await confirm.fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expect(page.getByText('Password updated successfully')).toBeVisible();
    await expect(current).toHaveValue('');
  });

  await test.step('log out; the old password fails, the new one works', async () => {
    await page.getByRole('button', { name: 'Log Out' }).click();
    await expect(page.getByText('Logged out successfully')).toBeVisible();
    await page.goto('/login');
    await page.getByLabel('Email').fill(me.account.email);
    await page.getByLabel('Password').fill(me.account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Logged in successfully')).toHaveCount(0);
    await loginThroughUi(page, { email: me.account.email, password: newPassword });
  });
});
