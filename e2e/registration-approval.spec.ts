import { adminUser, baseURL, expect, loginThroughUi, mailedLink, mailMatching, newAccount, test } from './support/index.ts';

/**
 * Registration in approval mode end to end (issue #12). The e2e server is shared by every spec,
 * so the mode is set back to open whatever happens.
 */
test('registration in approval mode: register, verify, wait, approved by an admin, log in', async ({ page, request, browser }) => {
  const admin = await adminUser(request);
  await admin.send('patch', '/admin/settings', { registrationMode: 'approval' }, 200);
  try {
    const account = newAccount('Pending Person');
    await page.goto('/register');
    await expect(page.getByText('New accounts on this instance are reviewed by a moderator before they can log in.')).toBeVisible();
    await page.getByLabel('Name').fill(account.fullName);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByLabel('Why do you want to join? (optional)').fill('I film the chess club.');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: 'Your account will be reviewed' })).toBeVisible();
    await expect(page.getByText(/A moderator will review your account before you can log in\./)).toBeVisible();

    const verify = await mailedLink(account.email, '/email-verification');
    await page.goto(verify.pathname + verify.search);
    await expect(page.getByText('Email Verified successfully')).toBeVisible();

    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('alert')).toContainText('Your account is waiting for approval by the moderators.');

    // The admin, in a browser of their own, approves from the registrations tab.
    const staff = await browser.newContext();
    try {
      const adminPage = await staff.newPage();
      await loginThroughUi(adminPage, admin.account);
      await adminPage.goto('/admin/registrations');
      const entry = adminPage.getByRole('listitem').filter({ hasText: account.email });
      await expect(entry).toContainText('I film the chess club.');
      await entry.getByRole('button', { name: `Approve ${account.fullName}` }).click();
      await expect(adminPage.getByText('Registration approved')).toBeVisible();
      await expect(adminPage.getByRole('listitem').filter({ hasText: account.email })).toHaveCount(0);
    } finally {
      await staff.close();
    }

    const approved = await mailMatching(account.email, /approved your account/);
    expect(approved).toContain(`${baseURL}/login`);
    await loginThroughUi(page, account);
  } finally {
    await admin.send('patch', '/admin/settings', { registrationMode: 'open' }, 200);
  }
});
