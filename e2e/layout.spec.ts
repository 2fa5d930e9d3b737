import { expect, test } from './support/index.ts';

test('unknown paths show the not-available page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText("This page isn't available. Sorry about that.")).toBeVisible();
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the side menu is hidden under 500 px, a rail up to 1023 px, full from 1024 px', async ({ page }) => {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/help');
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Help' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await page.setViewportSize({ width: 800, height: 800 });
  await expect(menu).toBeVisible();
  expect((await menu.boundingBox())?.width).toBe(80);

  await page.setViewportSize({ width: 1440, height: 800 });
  await expect.poll(async () => (await menu.boundingBox())?.width).toBe(240);
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
});
