import { expect, type Page } from '@playwright/test';
import type { AuthUser } from '@glimpse/contract';
import { API, expectOk, type NewAccount } from './api.ts';

/** The stored user the web app keeps in localStorage (apps/web lib/session.ts). */
function storedUser(user: AuthUser) {
  return {
    userId: user._id,
    userName: user.userName,
    fullName: user.fullName,
    email: user.email,
    avatar: user.avatar,
    cover: user.coverImage,
  };
}

/**
 * Logs the browser in without the login screen: the login call through the page's own
 * request context sets the httpOnly refresh cookie in the browser, and the stored user
 * makes the app trade that cookie for an access token at start-up. Then opens `path`.
 */
export async function signIn(page: Page, account: Pick<NewAccount, 'email' | 'password'>, path = '/'): Promise<AuthUser> {
  const { data } = await expectOk<{ user: AuthUser }>(
    await page.request.post(`${API}/auths/login`, { data: { email: account.email, password: account.password } }),
  );
  // A same-origin page without the app, so no start-up call of the app races the write.
  await page.goto(`${API}/health`);
  await page.evaluate((user) => localStorage.setItem('user', JSON.stringify(user)), storedUser(data.user));
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  return data.user;
}
