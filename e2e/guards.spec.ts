import type { Page } from '@playwright/test';
import { createChannelUser, expect, signIn, test, toastsGone, type ApiUser } from './support/index.ts';

let owner: ApiUser;

test.beforeAll(async ({ request }) => {
  owner = await createChannelUser(request, 'Guarded Owner');
});

/** Opens `path` and expects the toast `message` (and nothing else saying it) and a redirect home. */
async function expectSentHome(page: Page, path: string, message: string) {
  await page.goto(path);
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(message, { exact: true })).toHaveCount(1);
}

const NOT_AVAILABLE = "This page isn't available. Sorry about that.";

test('logged out: the own-channel area toasts and goes home; personal lists show a sign-in prompt', async ({ page }) => {
  const me = `@${owner.user.userName}`;
  await expectSentHome(page, `/user/${me}/dashboard`, 'Please login to view your channel.');
  await expectSentHome(page, `/user/${me}/personal-information`, 'Please login to view your Channel.');
  await expectSentHome(page, `/user/${me}/change-password`, 'Please login to view your Channel.');
  // Issue #17 (ADR 020): the side menu's personal entries open their page with a sign-in prompt.
  await toastsGone(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  for (const [entry, heading, prompt] of [
    ['Subscriptions', 'Subscriptions', "Don't miss new videos"],
    ['History', 'Watch history', 'Keep track of what you watch'],
    ['Liked videos', 'Liked videos', 'Enjoy your favourite videos'],
    ['Playlists', 'Playlists', 'Save videos for later'],
  ]) {
    await menu.getByRole('link', { name: entry, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('region', { name: prompt }).getByRole('link', { name: 'Log In' })).toBeVisible();
    await expect(page.getByText(/Please login/)).toHaveCount(0);
  }
  await page.getByRole('region', { name: 'Save videos for later' }).getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  // The side menu's Your Channel leads to the login screen.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Your Channel' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("logged in: another user's settings and dashboard toast and go home; own pages open", async ({ page, request }) => {
  const other = await createChannelUser(request, 'Someone Else');
  await signIn(page, owner.account);
  for (const tab of ['dashboard', 'personal-information', 'change-password']) {
    await expectSentHome(page, `/user/@${other.user.userName}/${tab}`, 'Please login to view your Channel.');
  }
  await page.goto(`/user/@${owner.user.userName}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Welcome back, Guarded Owner' })).toBeVisible();
  for (const path of ['/subscriptions', '/history', '/liked-videos', '/playlists']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  await expect(page.getByText('No playlists found')).toBeVisible();
});

test('a session that ended server-side: personal lists toast and go home, the app shows Log In', async ({ page, request }) => {
  const user = await createChannelUser(request, 'Ended Session');
  await signIn(page, user.account, '/history');
  await expect(page.getByText("You haven't watched any video.")).toBeVisible();
  // The refresh cookie is gone (expired, or another tab logged out): only the stored user is left.
  await page.context().clearCookies();
  await expectSentHome(page, '/liked-videos', 'Please login to view your liked videos.');
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
});

test('index and unknown subpaths show the not-available page; unknown channels and tweets go home', async ({ page }) => {
  const me = `@${owner.user.userName}`;
  for (const path of [`/channel/${me}`, `/channel/${me}/about`, `/user/${me}`, `/user/${me}/settings`, '/no/such/page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: NOT_AVAILABLE }), path).toBeVisible();
  }
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/channel/@nobody-by-this-name/videos');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/tweet/01234567-89ab-7def-8123-456789abcdef');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/tweet/not-an-id');
  await expect(page).toHaveURL(/\/$/);
});
