import { createChannelUser, expect, loginThroughUi, mailedLink, newAccount, register, signIn, test, verifyFromOutbox } from './support/index.ts';

test('logging in before verifying shows the verify-email notice', async ({ page, request }) => {
  const account = newAccount('Unverified User');
  await register(request, account);
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText('Your email address is not verified yet.');
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password: the mailed link resets it; log out survives a reload', async ({ page, request }) => {
  const account = newAccount('Forgetful User');
  await register(request, account);
  await verifyFromOutbox(request, account.email);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forgot password' });
  await dialog.getByLabel('Email').fill(account.email);
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('A reset password link has been sent to your given email ID.')).toBeVisible();

  const link = await mailedLink(account.email, '/password-reset');
  await page.goto(link.pathname + link.search);
  const newPassword = 'brand-new-secret';
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await loginThroughUi(page, { email: account.email, password: newPassword });
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
  // The refresh cookie went with the session: a reload does not log back in.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
});

test('the session survives a refresh that gets no answer and tabs opening at once', async ({ page, context, request }) => {
  const owner = await createChannelUser(request, 'Tabitha Tabs');
  await signIn(page, owner.account);
  const signedIn = (p: typeof page) => expect(p.getByRole('button', { name: 'Log Out' })).toBeVisible();

  // The start-up refresh dies unanswered (the page reloaded mid-request, the network dropped): the next load is still signed in.
  await page.route('**/api/v1/auths/refresh-token', (route) => route.abort('aborted'));
  // The app's first calls wait for the refresh: once one is answered, the failure has been handled.
  const started = page.waitForResponse('**/api/v1/config');
  await page.goto('/');
  await started;
  await page.unrouteAll();
  await page.reload();
  await signedIn(page);

  // Tabs restored together refresh with the same cookie at once: none of them is taken for a replay.
  const held: (() => Promise<void>)[] = [];
  await context.route('**/api/v1/auths/refresh-token', async (route) => {
    held.push(() => route.continue());
    if (held.length === 2) await Promise.all(held.map((go) => go()));
  });
  const tabs = [page, await context.newPage()];
  await Promise.all(tabs.map((tab) => tab.goto('/')));
  for (const tab of tabs) await signedIn(tab);
  await context.unrouteAll();
  await page.reload();
  await signedIn(page);
});
