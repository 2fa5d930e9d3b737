import { expect, test } from '@playwright/test';

test('serves the API and the web app', async ({ page, request }) => {
  const me = await request.get('/api/v1/users/me');
  expect(me.status()).toBe(401);
  expect((await me.json()).success).toBe(false);
  await page.goto('/');
  await expect(page).toHaveTitle(/Glimpse/);
});
