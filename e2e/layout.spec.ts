import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { ChannelAnalytics, Video } from '@glimpse/contract';
import {
  adminUser,
  API,
  expect,
  expectTidyLayout,
  login,
  PASSWORD,
  register,
  screenshotWidths,
  signIn,
  test,
  uniqueName,
  uploadVideo,
  verifyFromOutbox,
  type ApiUser,
} from './support/index.ts';

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

// Issue 34 items 3, 4 and 14: the analytics, administration and settings pages at phone, tablet and
// desktop widths, in English and French: no sideways scroll, no text drawn over other text or cut off.
let creator: ApiUser;
let admin: ApiUser;
let topVideo: Video;
const SEARCH_TOKEN = uniqueName('Wolkenstein');

/** A verified account with a long name and a long address, as real ones have. */
async function longNamedUser(request: APIRequestContext, first: string): Promise<ApiUser> {
  const account = {
    fullName: `${first} ${SEARCH_TOKEN}-Lindqvist Fairweather`,
    email: `${first.toLowerCase()}.${uniqueName('lindqvist.fairweather.')}@a-rather-long-mail-domain.example.test`,
    password: PASSWORD,
  };
  await register(request, account);
  await verifyFromOutbox(request, account.email);
  return login(request, account);
}

test.describe('pages that must fit every width', () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    [creator, admin] = await Promise.all([longNamedUser(request, 'Maximiliana'), adminUser(request)]);
    await longNamedUser(request, 'Bartholomew');
    topVideo = await uploadVideo(creator, { title: 'A walk through the colour bars of a very long afternoon, with commentary', seconds: 12, pattern: 'smptebars' });
    await uploadVideo(creator, { title: 'Second clip', seconds: 2, pattern: 'testsrc2' });
    // Anonymous viewers (one per user agent), each from a different place: every source has a row.
    const sources = ['home', 'search', 'subscriptions', 'channel', 'playlist', 'embed', 'external', 'direct'] as const;
    await Promise.all(
      sources.map(async (source, i) => {
        const res = await request.post(`${API}/analytics/heartbeat`, {
          headers: { 'user-agent': `layout-viewer-${SEARCH_TOKEN}-${i}` },
          data: { videoId: topVideo._id, sessionId: randomUUID(), source, positions: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
        });
        expect(res.status()).toBe(202);
      }),
    );
    // The worker rolls the day up every minute or so.
    await expect
      .poll(async () => (await creator.get<ChannelAnalytics>('/analytics/channel', { range: '28d', tz: 'UTC' })).totals.views, {
        message: 'the views reach analytics',
        timeout: 150_000,
        intervals: [2000, 5000],
      })
      .toBe(sources.length);
  });

  /** Each width: the page's content is there, then it fits; a shot of each (artifacts/screenshots/<name>-<width>.png). */
  async function checkWidths(page: Page, name: string, ready: (page: Page, width: number) => Promise<unknown>) {
    await screenshotWidths(page, name, {
      fullPage: true,
      ready: async (p, width) => {
        await ready(p, width);
        await expectTidyLayout(p, `${name} at ${width} px`, { scrollers: ['[data-scroll-strip]'] });
      },
    });
  }

  /** A page of its own in the browser's language `locale`, `user` signed in (in English: signIn waits for Log Out), then in `locale`. */
  async function signedInPage(browser: Browser, locale: string, user: ApiUser, path: string): Promise<Page> {
    const page = await (await browser.newContext({ locale })).newPage();
    await page.goto(`${API}/health`);
    await page.evaluate(() => localStorage.setItem('glimpse.locale', 'en'));
    await signIn(page, user.account);
    await page.evaluate(() => localStorage.removeItem('glimpse.locale'));
    await page.goto(path);
    return page;
  }

  test('a tab strip too wide for a phone fades at its edges and scrolls with its buttons, by keyboard too', async ({ browser }) => {
    const page = await signedInPage(browser, 'en-GB', admin, '/admin/users');
    try {
      await page.setViewportSize({ width: 360, height: 800 });
      const strip = page.getByRole('navigation', { name: 'Sections' });
      const scroller = strip.locator('[data-scroll-strip]');
      const left = strip.getByRole('button', { name: 'Scroll tabs left' });
      const right = strip.getByRole('button', { name: 'Scroll tabs right' });
      const scrolled = () => scroller.evaluate((e) => e.scrollLeft);
      /** Until a smooth scroll has come to rest. */
      const stopped = async () => {
        let last = -1;
        await expect.poll(async () => last === (last = await scrolled())).toBe(true);
      };
      await expect(right).toHaveAttribute('aria-disabled', 'false');
      await expect(left).toHaveAttribute('aria-disabled', 'true');
      // Faded on the side with more tabs only.
      await expect.poll(() => scroller.evaluate((e) => getComputedStyle(e).maskImage)).toMatch(/^linear-gradient\(to right, rgb\(0, 0, 0\),.*rgba\(0, 0, 0, 0\)\)$/);
      const held = strip.getByRole('link', { name: 'Held tweets' });
      await expect(held).not.toBeInViewport({ ratio: 1 });
      await right.focus();
      // Each press scrolls most of the strip's width, until its end.
      for (let presses = 0; (await right.getAttribute('aria-disabled')) === 'false'; presses++) {
        expect(presses, 'presses to reach the last tab').toBeLessThan(5);
        const before = await scrolled();
        await page.keyboard.press('Enter');
        await expect.poll(scrolled).toBeGreaterThan(before);
        await stopped();
        await expect(left).toHaveAttribute('aria-disabled', 'false');
      }
      // At the strip's end the last tab is whole but for a sub-pixel (here and below): the tabs' widths are
      // fractional and the browser's furthest scroll position is not (0.998 seen at 360 px with the Federation tab).
      await expect(held).toBeInViewport({ ratio: 0.99 });
      // A dimmed button keeps the focus and does nothing; the other one scrolls back.
      await expect(right).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(held).toBeFocused();
      await left.click();
      await expect.poll(scrolled).toBeLessThan(await held.evaluate((e) => e.parentElement!.offsetLeft));
      await stopped();
      // Arriving on a tab out of view scrolls it in.
      await page.goto('/admin/held-tweets');
      await expect(held).toHaveAttribute('aria-current', 'page');
      await expect(held).toBeInViewport({ ratio: 0.99 });
      // Wide enough: no buttons, no fade.
      await page.setViewportSize({ width: 1440, height: 800 });
      await expect(right).toHaveCount(0);
      await expect.poll(() => scroller.evaluate((e) => getComputedStyle(e).maskImage)).toBe('none');
    } finally {
      await page.context().close();
    }
  });

  test('a channel in search results has its avatar beside its name at every width', async ({ page }) => {
    await page.goto(`/search?searchText=${encodeURIComponent(SEARCH_TOKEN)}`);
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('button', { name: 'Channel', exact: true }).click();
    const row = page.getByRole('list', { name: 'Search results' }).getByRole('link').filter({ has: page.getByRole('heading', { name: creator.account.fullName }) });
    await screenshotWidths(page, 'layout-search-channels', {
      ready: async (p, width) => {
        const [avatar, name] = await Promise.all([row.getByRole('img').boundingBox(), row.getByRole('heading').boundingBox()]);
        expect(name!.x - (avatar!.x + avatar!.width), `gap between avatar and name at ${width} px`).toBeLessThanOrEqual(24);
        await expectTidyLayout(p, `channel search at ${width} px`);
      },
    });
  });

  for (const locale of ['en-GB', 'fr-FR']) {
    const lang = locale.slice(0, 2);

    test(`analytics and settings fit at 360, 800 and 1440 px (${lang})`, async ({ browser }) => {
      test.setTimeout(180_000);
      const me = `/user/@${creator.user.userName}`;
      const page = await signedInPage(browser, locale, creator, `${me}/dashboard/analytics`);
      try {
        // The daily chart names some of its days (how many depends on its width), the newest one always.
        const chartReady = async (p: Page) => {
          await expect(p.getByTestId('line-chart').first().locator('.ct-line')).toBeVisible();
          const labels = p.getByTestId('axis-labels').first().locator('span:not(.invisible)');
          await expect.poll(() => labels.count()).toBeGreaterThanOrEqual(2);
          const [last, chart] = await Promise.all([labels.last().boundingBox(), p.getByTestId('line-chart').first().boundingBox()]);
          expect(last!.x + last!.width, 'the newest day is labelled, at the right end').toBeGreaterThan(chart!.x + chart!.width * 0.8);
        };
        await checkWidths(page, `layout-${lang}-channel-analytics`, async (p) => {
          await chartReady(p);
          await expect(p.getByRole('link', { name: topVideo.title })).toBeVisible();
        });
        await page.goto(`${me}/dashboard/analytics/${topVideo._id}`);
        await checkWidths(page, `layout-${lang}-video-analytics`, async (p) => {
          await chartReady(p);
          await expect(p.getByTestId('line-chart').nth(1).locator('.ct-line')).toBeVisible();
        });
        for (const tab of ['personal-information', 'change-password', 'blocked-users', 'notifications']) {
          await page.goto(`${me}/${tab}`);
          await checkWidths(page, `layout-${lang}-${tab}`, async (p) => {
            await expect(p.locator('main section h2').first()).toBeVisible();
            // Item 14: the form and the blocks below it (feeds, your data) line up on one left edge.
            const lefts = await p.locator('main section[aria-labelledby]').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
            expect(new Set(lefts).size, `left edges of the sections: ${lefts.join(', ')}`).toBe(1);
          });
        }
      } finally {
        await page.context().close();
      }
    });

    test(`administration fits at 360, 800 and 1440 px (${lang})`, async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await signedInPage(browser, locale, admin, '/admin/users');
      try {
        const search = page.getByRole('main').getByRole('searchbox');
        await search.fill(SEARCH_TOKEN);
        await search.press('Enter');
        await checkWidths(page, `layout-${lang}-admin-users`, async (p, width) => {
          await expect(p.getByRole('link', { name: /^Maximiliana/ })).toBeVisible();
          await expect(p.getByRole('link', { name: /^Bartholomew/ })).toBeVisible();
          // The search box takes the line on a phone (it was squeezed to ~70 px beside the state and the button).
          const [box, main] = await Promise.all([p.getByRole('main').getByRole('searchbox').boundingBox(), p.locator('main').boundingBox()]);
          expect(box!.width, `search box width at ${width} px`).toBeGreaterThanOrEqual(Math.min(240, main!.width - 40));
        });
        await page.goto('/admin/settings');
        await checkWidths(page, `layout-${lang}-admin-settings`, (p) => expect(p.locator('main form').first()).toBeVisible());
      } finally {
        await page.context().close();
      }
    });
  }
});
