import { expect, type Page } from '@playwright/test';
import type { NewAccount } from './api.ts';

/** Logs in through the login screen and waits for the app to land home, logged in. */
export async function loginThroughUi(page: Page, account: Pick<NewAccount, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Logged in successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
}

/** Resolves once no toast (react-hot-toast: role=status + aria-live) is left on the page. */
export async function toastsGone(page: Page): Promise<void> {
  await page.locator('[role="status"][aria-live]').first().waitFor({ state: 'detached' });
}

/** A video of the dashboard: a table row from 1024 px, a card (list item) below (issue #17). */
export function videoRow(page: Page, title: string) {
  return page
    .getByRole('row')
    .or(page.getByRole('list', { name: 'Your videos' }).getByRole('listitem'))
    .filter({ hasText: title });
}
