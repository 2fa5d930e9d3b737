import { expect, type Page } from '@playwright/test';

/** Nothing may widen the page past the viewport (a sideways scroll on phones). */
export async function expectNoPageOverflow(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: 'horizontal page overflow (px)' })
    .toBeLessThanOrEqual(0);
}
