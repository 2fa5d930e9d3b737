import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import type { Video } from '@glimpse/contract';
import {
  adminUser,
  API,
  auditRoute,
  createChannelUser,
  expect,
  expectOk,
  makeImage,
  setProfileImages,
  signIn,
  test,
  uniqueName,
  uploadVideo,
  type ApiUser,
  type AuditedRoute,
} from './support/index.ts';

/**
 * Issue #17: every screen of the app, as the role that can open it, at 360, 800 and 1440 px in
 * the light and the dark colour scheme, has no serious or critical axe violation; issue 34: and
 * a sound outline (one h1, heading levels in order, landmarks named apart; support/route-audit.ts). One instance
 * of content is seeded once; each role keeps one logged-in page across its screens.
 */

let creator: ApiUser;
let fan: ApiUser;
let admin: ApiUser;
let video: Video;
let tweetId: string;
let liveId: string;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  [creator, fan, admin] = await Promise.all([createChannelUser(request, 'Alma Creator'), createChannelUser(request, 'Finn Fan'), adminUser(request)]);
  const [avatar, cover, picture] = await Promise.all([makeImage(256, 256, 'testsrc2'), makeImage(1500, 300, 'smptebars'), makeImage(640, 360, 'rgbtestsrc')]);
  await setProfileImages(creator, { avatar, cover });
  video = await uploadVideo(creator, {
    title: uniqueName('Audit clip '),
    description: '0:00 Start\n0:01 Middle\n0:02 End',
    seconds: 3,
    pattern: 'testsrc2',
  });
  const tweet = await expectOk<{ _id: string }>(
    await request.post(`${API}/tweets`, {
      headers: creator.headers,
      multipart: { content: 'Colour bars at dawn.', image: { name: 'bars.png', mimeType: 'image/png', buffer: await readFile(picture) } },
    }),
    201,
  );
  tweetId = tweet.data._id;

  // The fan's library, inbox and reports are not empty; the creator's analytics have a view.
  await fan.send('post', `/subscriptions/toggle/${creator.user._id}`);
  await fan.send('post', `/videos/${video._id}/views`, { position: 2 });
  await fan.send('post', `/likes/video/${video._id}/like`);
  const comment = await fan.send<{ _id: string }>('post', `/comments/video/${video._id}`, { content: 'Lovely colours.' }, 201);
  await creator.send('post', `/comments/video/${video._id}/${comment._id}`, { content: 'Thank you!' }, 201);
  await fan.send('post', `/comments/tweet/${tweetId}`, { content: 'Early bird.' }, 201);
  await fan.send('post', '/playlists', { name: 'Watch later', videoId: video._id }, 201);
  await fan.send('post', '/reports', { targetKind: 'tweet', targetId: tweetId, reason: 'spam' }, 201);
  // A live waiting for its stream, with a chat message (issue 36).
  await admin.send('patch', '/admin/settings', { livesEnabled: true });
  liveId = (await creator.send<{ live: { _id: string } }>('post', '/lives', { title: 'Audit live' }, 201)).live._id;
  await fan.send('post', `/comments/live/${liveId}`, { content: 'See you soon!' }, 201);
});

/** A page of its own for one role: a visitor, or `user` logged in. */
async function pageAs(browser: Browser, user?: ApiUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (user) await signIn(page, user.account);
  return page;
}

/** Audits each route in a step of its own, so one screen's findings do not hide the next one's. */
async function auditAll(page: Page, routes: AuditedRoute[]): Promise<void> {
  test.setTimeout(60_000 + routes.length * 15_000);
  try {
    for (const route of routes) {
      await test.step(`${route.name} (${route.href})`, async () => {
        expect.soft(await auditRoute(page, route), `serious/critical axe violations or outline breaches on ${route.href}`).toEqual([]);
      });
    }
  } finally {
    await page.context().close();
  }
}

test('public screens, as a visitor', async ({ browser }) => {
  const channel = `/channel/@${creator.user.userName}`;
  await auditAll(await pageAs(browser), [
    { name: 'home', href: '/' },
    { name: 'search', href: `/search?searchText=${encodeURIComponent(video.title)}` },
    { name: 'video', href: `/video/${video._id}` },
    { name: 'tweet', href: `/tweet/${tweetId}` },
    { name: 'channel-videos', href: `${channel}/videos` },
    { name: 'channel-playlists', href: `/channel/@${fan.user.userName}/playlists` },
    { name: 'channel-tweets', href: `${channel}/tweets` },
    { name: 'channel-subscribed', href: `/channel/@${fan.user.userName}/subscribed` },
    { name: 'help', href: '/help' },
    { name: 'about', href: '/about' },
    { name: 'live-waiting', href: `/live/${liveId}` },
    { name: 'not-available', href: '/no/such/page' },
    { name: 'login', href: '/login' },
    { name: 'register', href: '/register' },
    { name: 'password-reset', href: '/password-reset' },
    { name: 'password-reset-token', href: '/password-reset?token=not-a-real-token' },
    { name: 'email-verification', href: '/email-verification?token=not-a-real-token' },
    { name: 'unsubscribe', href: '/unsubscribe?token=not-a-real-token' },
  ]);
});

test("a viewer's own screens, logged in", async ({ browser }) => {
  await auditAll(await pageAs(browser, fan), [
    { name: 'home-logged-in', href: '/' },
    { name: 'video-logged-in', href: `/video/${video._id}` },
    { name: 'history', href: '/history' },
    { name: 'liked-videos', href: '/liked-videos' },
    { name: 'playlists', href: '/playlists' },
    { name: 'subscriptions', href: '/subscriptions' },
    { name: 'my-reports', href: '/my-reports' },
    { name: 'notifications', href: '/notifications' },
  ]);
});

test("a creator's studio and settings, logged in", async ({ browser }) => {
  const user = `/user/@${creator.user.userName}`;
  await auditAll(await pageAs(browser, creator), [
    { name: 'channel-owner', href: `/channel/@${creator.user.userName}/videos` },
    { name: 'dashboard', href: `${user}/dashboard` },
    { name: 'analytics', href: `${user}/dashboard/analytics` },
    { name: 'video-analytics', href: `${user}/dashboard/analytics/${video._id}` },
    { name: 'change-password', href: `${user}/change-password` },
    { name: 'personal-information', href: `${user}/personal-information` },
    { name: 'blocked-users', href: `${user}/blocked-users` },
    { name: 'notification-settings', href: `${user}/notifications` },
    { name: 'my-lives', href: '/lives' },
  ]);
});

test('administration and moderation, as the admin', async ({ browser }) => {
  await auditAll(await pageAs(browser, admin), [
    { name: 'admin', href: '/admin' },
    { name: 'admin-users', href: '/admin/users' },
    { name: 'admin-settings', href: '/admin/settings' },
    { name: 'admin-registrations', href: '/admin/registrations' },
    { name: 'admin-watched-words', href: '/admin/watched-words' },
    { name: 'admin-held-tweets', href: '/admin/held-tweets' },
    { name: 'admin-reports', href: '/admin/reports' },
    { name: 'admin-log', href: '/admin/log' },
  ]);
});
