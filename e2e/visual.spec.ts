import type { Page } from '@playwright/test';
import type { Video } from '@glimpse/contract';
import {
  API,
  createChannelUser,
  expect,
  expectNoPageOverflow,
  screenshotWidths,
  signIn,
  test,
  uploadVideo,
  type ApiUser,
} from './support/index.ts';

/**
 * Issue #17 (docs/design.md): every main screen in the light and the dark theme at 360, 800 and
 * 1440 px, none scrolling sideways. Screenshots: artifacts/screenshots/theme-<theme>-<screen>-<width>.png.
 */
let owner: ApiUser;
let fan: ApiUser;
let video: Video;

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  owner = await createChannelUser(request, 'Vera Visual');
  fan = await createChannelUser(request, 'Fenna Fan');
  video = await uploadVideo(owner, { title: 'Colour bars at dusk, a very long title that wraps over two lines on phones', pattern: 'smptebars', seconds: 2 });
  await uploadVideo(owner, { title: 'Test pattern two', pattern: 'testsrc2', seconds: 2 });
  await uploadVideo(fan, { title: 'Fan clip', pattern: 'rgbtestsrc', seconds: 2 });
  for (let i = 1; i <= 4; i++) await fan.send('post', `/comments/video/${video._id}`, { content: `Comment number ${i} from a fan` }, 201);
  await owner.send('post', `/comments/video/${video._id}`, { content: 'Thanks, from the owner' }, 201);
  await fan.send('post', `/subscriptions/toggle/${owner.user._id}`);
  await fan.send('post', `/likes/video/${video._id}/like`);
  for (const [user, content] of [
    [owner, 'Behind the scenes of today'],
    [fan, 'A fan tweet'],
  ] as const) {
    const res = await user.request.post(`${API}/tweets`, { headers: user.headers, multipart: { content } });
    expect(res.status()).toBe(201);
  }
  await fan.send('post', '/playlists', { name: 'Favourites', videoId: video._id }, 201);
});

const THEMES = ['light', 'dark'] as const;

/** Long pages (the watch page's teaser, the dashboard's cards) are shot whole. */
const FULL_PAGE = new Set(['watch', 'watch-own', 'dashboard']);

async function shoot(page: Page, name: string, ready: (page: Page) => Promise<unknown>) {
  for (const theme of THEMES) {
    // The stored choice, applied by index.html's inline theme script on the reload, as a returning visitor gets it.
    await page.evaluate((t) => localStorage.setItem('glimpse.theme', t), theme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await screenshotWidths(page, `theme-${theme}-${name}`, {
      fullPage: FULL_PAGE.has(name),
      ready: async (p) => {
        await ready(p);
        await expectNoPageOverflow(p);
      },
    });
  }
}

test('anonymous screens in both themes', async ({ page }) => {
  test.setTimeout(240_000);
  const screens: [string, string, (p: Page) => Promise<unknown>][] = [
    ['home', '/', (p) => expect(p.getByRole('heading', { level: 2 }).first()).toBeVisible()],
    ['watch', `/video/${video._id}`, (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible()],
    ['channel', `/channel/@${owner.user.userName}/videos`, (p) => expect(p.getByRole('heading', { name: 'Test pattern two' })).toBeVisible()],
    ['channel-tweets', `/channel/@${owner.user.userName}/tweets`, (p) => expect(p.getByText('Behind the scenes of today')).toBeVisible()],
    ['search', '/search?searchText=pattern', (p) => expect(p.getByRole('heading', { name: 'Test pattern two' }).first()).toBeVisible()],
    ['subscriptions', '/subscriptions', (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible()],
    ['login', '/login', (p) => expect(p.getByRole('button', { name: 'Log In' })).toBeVisible()],
    ['register', '/register', (p) => expect(p.getByRole('button', { name: 'Register' })).toBeVisible()],
  ];
  for (const [name, path, ready] of screens) {
    await page.goto(path);
    await shoot(page, name, ready);
  }
});

test('signed-in screens in both themes', async ({ page }) => {
  test.setTimeout(240_000);
  const me = `@${owner.user.userName}`;
  await signIn(page, owner.account);
  const screens: [string, string, (p: Page) => Promise<unknown>][] = [
    ['home-signed-in', '/', (p) => expect(p.getByRole('heading', { level: 2 }).first()).toBeVisible()],
    ['watch-own', `/video/${video._id}`, (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible()],
    ['channel-own-tweets', `/channel/${me}/tweets`, (p) => expect(p.getByText('Behind the scenes of today')).toBeVisible()],
    ['channel-subscribed', `/channel/@${fan.user.userName}/subscribed`, (p) => expect(p.getByRole('heading', { level: 1 }).first()).toBeVisible()],
    ['dashboard', `/user/${me}/dashboard`, (p) => expect(p.getByText('Test pattern two').first()).toBeVisible()],
    ['personal-information', `/user/${me}/personal-information`, (p) => expect(p.getByRole('heading', { level: 1 }).first()).toBeVisible()],
    ['change-password', `/user/${me}/change-password`, (p) => expect(p.getByRole('button', { name: 'Update password' })).toBeVisible()],
    ['history', '/history', (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible()],
  ];
  for (const [name, path, ready] of screens) {
    await page.goto(path);
    await shoot(page, name, ready);
  }
});

test('the fan: liked videos and playlists in both themes', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, fan.account);
  for (const [name, path] of [
    ['liked-videos', '/liked-videos'],
    ['playlists', '/playlists'],
  ] as const) {
    await page.goto(path);
    await shoot(page, name, (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible());
  }
});
