import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@glimpse/contract';
import type { UserRow } from '../modules/users/users.repository.ts';
import { bearer, createTestApp, createTweet, createUser, createVideo, TEST_PASSWORD, type TestContext } from '../../test/harness.ts';

/**
 * A spec client sends its Bearer token on every call, expired or not. Calls that need no login
 * answer as they would anonymously; calls that need one answer 401 'jwt expired' for an expired
 * token. Keyed by the route table: a route added without a case fails the first test.
 */
interface Scene {
  owner: UserRow;
  video: string;
  tweet: string;
  comment: string;
  playlist: string;
}

interface Case {
  url: (s: Scene) => string;
  /** JSON body; `i` tells the three calls of one case apart (fresh e-mail addresses). */
  body?: (s: Scene, i: number) => object;
}

/** Calls that need no login, each with input that a stranger may send. */
const open: Record<string, Case> = {
  'GET /api/v1/health': { url: () => '/health' },
  'GET /api/v1/config': { url: () => '/config' },
  'POST /api/v1/auths/register': {
    url: () => '/auths/register',
    body: (_s, i) => ({ fullName: 'New Person', email: `new-${i}-${Date.now()}@example.com`, password: TEST_PASSWORD }),
  },
  'POST /api/v1/auths/login': { url: () => '/auths/login', body: (s) => ({ email: s.owner.email, password: TEST_PASSWORD }) },
  'POST /api/v1/auths/logout': { url: () => '/auths/logout', body: () => ({ refreshToken: 'not-a-session' }) },
  'POST /api/v1/auths/forgot-password-mail': { url: () => '/auths/forgot-password-mail', body: (s) => ({ email: s.owner.email }) },
  'GET /api/v1/auths/email-verification': { url: () => '/auths/email-verification?token=unknown' },
  'POST /api/v1/auths/refresh-token': { url: () => '/auths/refresh-token', body: () => ({ refreshToken: 'not-a-session' }) },
  'POST /api/v1/auths/password-reset': {
    url: () => '/auths/password-reset',
    body: () => ({ token: 'unknown', newPassword: 'another1', confirmPassword: 'another1' }),
  },
  'GET /api/v1/users/channel/:userName': { url: (s) => `/users/channel/${s.owner.userName}` },
  'GET /api/v1/users/video/:userName': { url: (s) => `/users/video/${s.owner.userName}` },
  'GET /api/v1/tweets/user/:channelId/:userId?': { url: (s) => `/tweets/user/${s.owner.id}/${s.owner.id}` },
  'GET /api/v1/tweets/:tweetId/:userId?': { url: (s) => `/tweets/${s.tweet}` },
  'GET /api/v1/comments/video/:entityId': { url: (s) => `/comments/video/${s.video}?userId=${s.owner.id}` },
  'GET /api/v1/comments/tweet/:entityId': { url: (s) => `/comments/tweet/${s.tweet}` },
  'GET /api/v1/comments/:entityType/:entityId/:parentCommentId': { url: (s) => `/comments/video/${s.video}/${s.comment}` },
  'GET /api/v1/subscriptions/channel/:channelId': { url: (s) => `/subscriptions/channel/${s.owner.id}` },
  // Without userName it is the viewer's own list: see the login-only case below.
  'GET /api/v1/playlists': { url: (s) => `/playlists?userName=${s.owner.userName}` },
  'GET /api/v1/playlists/:playlistId': { url: (s) => `/playlists/${s.playlist}` },
  'GET /api/v1/videos': { url: () => '/videos?page=1&limit=10&sortBy=views' },
  'GET /api/v1/videos/:id': { url: (s) => `/videos/${s.video}?userId=${s.owner.id}` },
  'GET /api/v1/videos/:id/similar': { url: (s) => `/videos/${s.video}/similar` },
  'GET /api/v1/videos/:id/captions': { url: (s) => `/videos/${s.video}/captions` },
  'POST /api/v1/videos/:id/views': { url: (s) => `/videos/${s.video}/views` },
  'GET /api/v1/videos/video/:file': { url: (s) => `/videos/video/${s.video}.mp4` },
  'GET /api/v1/instance/about': { url: () => '/instance/about' },
  'GET /api/v1/feeds/channels/:userName': { url: (s) => `/feeds/channels/${s.owner.userName}` },
  // The token in the path is the credential, not the header.
  'GET /api/v1/feeds/subscriptions/:token': { url: () => '/feeds/subscriptions/unknown-token' },
  'GET /api/v1/oembed': { url: (s) => `/oembed?url=${encodeURIComponent(`http://glimpse.test/video/${s.video}`)}` },
  'POST /api/v1/analytics/heartbeat': {
    url: () => '/analytics/heartbeat',
    body: (s) => ({ videoId: s.video, sessionId: '01900000-0000-7000-8000-000000000001', source: 'home', positions: [1] }),
  },
  // The signed token is the authority (mail clients POST without a login); a bad one is refused the same for everyone.
  'POST /api/v1/notifications/unsubscribe': { url: () => '/notifications/unsubscribe?token=v1.not-a-token' },
  // Lives (issue #36): a live, its HLS, its chat and its comments, as anyone may read them (an unknown id: 404 alike).
  'GET /api/v1/lives/:liveId': { url: (s) => `/lives/${s.video}` },
  'GET /api/v1/lives/:liveId/hls/:sessionId/:access/*': { url: (s) => `/lives/${s.video}/hls/${s.video}/pub/master.m3u8` },
  'GET /api/v1/lives/:liveId/chat/stream': { url: (s) => `/lives/${s.video}/chat/stream` },
  'GET /api/v1/lives/:liveId/thumbnail/:access/:file': { url: (s) => `/lives/${s.video}/thumbnail/pub/thumb-${s.video}.png` },
  'GET /api/v1/comments/live/:entityId': { url: (s) => `/comments/live/${s.video}` },
  // Federation (issue #35): remote channels, videos and comments anyone may read.
  'GET /api/v1/federation/channels/:actorId': { url: (s) => `/federation/channels/${s.video}` },
  'GET /api/v1/federation/videos/:videoId': { url: (s) => `/federation/videos/${s.video}` },
  'GET /api/v1/federation/comments': { url: (s) => `/federation/comments?video=${s.video}` },
};

/** Calls that need a login, each with input valid enough that only the login is missing. */
const loginOnly: Record<string, Case> = {
  'GET /api/v1/users/me': { url: () => '/users/me' },
  'GET /api/v1/videos/:id/original': { url: (s) => `/videos/${s.video}/original` },
  'PATCH /api/v1/users/me': { url: () => '/users/me', body: () => ({ fullName: 'A', userName: 'someone' }) },
  'PATCH /api/v1/users/password': {
    url: () => '/users/password',
    body: () => ({ curPassword: TEST_PASSWORD, newPassword: 'another1', confirmPassword: 'another1' }),
  },
  'PATCH /api/v1/users/avatar': { url: () => '/users/avatar' },
  'PATCH /api/v1/users/cover-image': { url: () => '/users/cover-image' },
  'POST /api/v1/tweets': { url: () => '/tweets' },
  'PATCH /api/v1/tweets/:tweetId': { url: (s) => `/tweets/${s.tweet}` },
  'DELETE /api/v1/tweets/:tweetId': { url: (s) => `/tweets/${s.tweet}` },
  'POST /api/v1/comments/:entityType/:entityId/:parentId?': { url: (s) => `/comments/video/${s.video}`, body: () => ({ content: 'hi' }) },
  'PATCH /api/v1/comments/:commentId': { url: (s) => `/comments/${s.comment}`, body: () => ({ content: 'changed' }) },
  'DELETE /api/v1/comments/:commentId': { url: (s) => `/comments/${s.comment}` },
  'POST /api/v1/likes/:entityType/:entityId/like': { url: (s) => `/likes/video/${s.video}/like` },
  'POST /api/v1/likes/:entityType/:entityId/dislike': { url: (s) => `/likes/tweet/${s.tweet}/dislike` },
  'GET /api/v1/likes/video': { url: () => '/likes/video' },
  'POST /api/v1/subscriptions/toggle/:channelId': { url: (s) => `/subscriptions/toggle/${s.owner.id}` },
  'GET /api/v1/subscriptions': { url: () => '/subscriptions' },
  'POST /api/v1/playlists': { url: () => '/playlists', body: () => ({ name: 'Mine' }) },
  'PATCH /api/v1/playlists/:playlistId': { url: (s) => `/playlists/${s.playlist}`, body: () => ({ name: 'Renamed' }) },
  'DELETE /api/v1/playlists/:playlistId': { url: (s) => `/playlists/${s.playlist}` },
  'POST /api/v1/playlists/:playlistId/:videoId': { url: (s) => `/playlists/${s.playlist}/${s.video}` },
  'DELETE /api/v1/playlists/:playlistId/:videoId': { url: (s) => `/playlists/${s.playlist}/${s.video}` },
  'PATCH /api/v1/videos/:id': { url: (s) => `/videos/${s.video}`, body: () => ({ title: 'New title' }) },
  'PATCH /api/v1/videos/:id/publish': { url: (s) => `/videos/${s.video}/publish`, body: () => ({ isPublished: false }) },
  'DELETE /api/v1/videos/:id': { url: (s) => `/videos/${s.video}` },
  'POST /api/v1/videos/:id/captions/:lang': { url: (s) => `/videos/${s.video}/captions/en`, body: () => ({ label: 'English', text: 'WEBVTT' }) },
  'DELETE /api/v1/videos/:id/captions/:lang': { url: (s) => `/videos/${s.video}/captions/en` },
  'POST /api/v1/videos': { url: () => '/videos?uniqueId=u1&chunkNumber=1&totalChunks=1' },
  'GET /api/v1/videos/uploads/:uniqueId': { url: () => '/videos/uploads/u1' },
  'DELETE /api/v1/videos/uploads/:uniqueId': { url: () => '/videos/uploads/u1' },
  'GET /api/v1/users/watch-history': { url: () => '/users/watch-history' },
  'GET /api/v1/dashboard/channel-stats': { url: () => '/dashboard/channel-stats' },
  'GET /api/v1/dashboard/channel-videos': { url: () => '/dashboard/channel-videos' },
  // Moderation, creator tools and account routes (issue #12); staff routes check the login before the role.
  'GET /api/v1/comments/held': { url: () => '/comments/held' },
  'POST /api/v1/comments/:commentId/approve': { url: (s) => `/comments/${s.comment}/approve` },
  'POST /api/v1/comments/:commentId/pin': { url: (s) => `/comments/${s.comment}/pin` },
  'DELETE /api/v1/comments/:commentId/pin': { url: (s) => `/comments/${s.comment}/pin` },
  'GET /api/v1/channel-blocks': { url: () => '/channel-blocks' },
  'POST /api/v1/channel-blocks': { url: () => '/channel-blocks', body: (s) => ({ userId: s.owner.id }) },
  'DELETE /api/v1/channel-blocks/:userId': { url: (s) => `/channel-blocks/${s.owner.id}` },
  'GET /api/v1/users/me/storage': { url: () => '/users/me/storage' },
  'GET /api/v1/users/me/export': { url: () => '/users/me/export' },
  'DELETE /api/v1/users/me': { url: () => '/users/me', body: () => ({ password: TEST_PASSWORD }) },
  'POST /api/v1/reports': { url: () => '/reports', body: (s) => ({ targetKind: 'video', targetId: s.video, reason: 'spam' }) },
  'GET /api/v1/reports/mine': { url: () => '/reports/mine' },
  // Notifications (issue #14).
  'GET /api/v1/notifications': { url: () => '/notifications' },
  'GET /api/v1/notifications/unread-count': { url: () => '/notifications/unread-count' },
  'GET /api/v1/notifications/stream': { url: () => '/notifications/stream' },
  'PATCH /api/v1/notifications/:id/read': { url: (s) => `/notifications/${s.video}/read` },
  'POST /api/v1/notifications/read-all': { url: () => '/notifications/read-all' },
  'GET /api/v1/notifications/settings': { url: () => '/notifications/settings' },
  'PATCH /api/v1/notifications/settings': { url: () => '/notifications/settings', body: () => ({ comment: 'off' }) },
  'POST /api/v1/takedowns/:kind/:id/appeal': { url: (s) => `/takedowns/video/${s.video}/appeal`, body: () => ({ text: 'Please look again' }) },
  'GET /api/v1/admin/settings': { url: () => '/admin/settings' },
  'PATCH /api/v1/admin/settings': { url: () => '/admin/settings', body: () => ({ description: 'Videos' }) },
  'GET /api/v1/admin/overview': { url: () => '/admin/overview' },
  'POST /api/v1/admin/transcodes/:videoId/retry': { url: (s) => `/admin/transcodes/${s.video}/retry` },
  'GET /api/v1/admin/users': { url: () => '/admin/users' },
  'PATCH /api/v1/admin/users/:userId/role': { url: (s) => `/admin/users/${s.owner.id}/role`, body: () => ({ role: 'moderator' }) },
  'DELETE /api/v1/admin/users/:userId': { url: (s) => `/admin/users/${s.owner.id}` },
  'GET /api/v1/admin/watched-words': { url: () => '/admin/watched-words' },
  'POST /api/v1/admin/watched-words': { url: () => '/admin/watched-words', body: () => ({ word: 'spoiler' }) },
  'DELETE /api/v1/admin/watched-words/:id': { url: (s) => `/admin/watched-words/${s.video}` },
  'GET /api/v1/moderation/held-tweets': { url: () => '/moderation/held-tweets' },
  'POST /api/v1/moderation/held-tweets/:tweetId/approve': { url: (s) => `/moderation/held-tweets/${s.tweet}/approve` },
  'DELETE /api/v1/moderation/held-tweets/:tweetId': { url: (s) => `/moderation/held-tweets/${s.tweet}` },
  'GET /api/v1/moderation/registrations': { url: () => '/moderation/registrations' },
  'POST /api/v1/moderation/registrations/:userId/approve': { url: (s) => `/moderation/registrations/${s.owner.id}/approve` },
  'POST /api/v1/moderation/registrations/:userId/reject': { url: (s) => `/moderation/registrations/${s.owner.id}/reject`, body: () => ({ reason: 'No' }) },
  'GET /api/v1/moderation/reports': { url: () => '/moderation/reports' },
  'GET /api/v1/moderation/log': { url: () => '/moderation/log' },
  'POST /api/v1/moderation/targets/:kind/:id/dismiss': { url: (s) => `/moderation/targets/video/${s.video}/dismiss` },
  'POST /api/v1/moderation/targets/:kind/:id/take-down': { url: (s) => `/moderation/targets/video/${s.video}/take-down`, body: () => ({ reason: 'Spam' }) },
  'POST /api/v1/moderation/targets/:kind/:id/restore': { url: (s) => `/moderation/targets/video/${s.video}/restore` },
  'POST /api/v1/moderation/targets/:kind/:id/delete': { url: (s) => `/moderation/targets/video/${s.video}/delete` },
  'POST /api/v1/moderation/users/:userId/suspend': { url: (s) => `/moderation/users/${s.owner.id}/suspend`, body: () => ({ reason: 'Spam' }) },
  'POST /api/v1/moderation/users/:userId/unsuspend': { url: (s) => `/moderation/users/${s.owner.id}/unsuspend` },
  'GET /api/v1/feeds/token': { url: () => '/feeds/token' },
  'POST /api/v1/feeds/token': { url: () => '/feeds/token' },
  'DELETE /api/v1/feeds/token': { url: () => '/feeds/token' },
  // Analytics (issue #15).
  'GET /api/v1/analytics/channel': { url: () => '/analytics/channel' },
  'GET /api/v1/analytics/channel.csv': { url: () => '/analytics/channel.csv' },
  'GET /api/v1/analytics/videos/:id': { url: (s) => `/analytics/videos/${s.video}` },
  'GET /api/v1/analytics/videos/:id.csv': { url: (s) => `/analytics/videos/${s.video}.csv` },
  // Lives (issue #36): the creator's own.
  'POST /api/v1/lives': { url: () => '/lives', body: () => ({ title: 'On air' }) },
  'GET /api/v1/lives': { url: () => '/lives' },
  'PATCH /api/v1/lives/:liveId': { url: (s) => `/lives/${s.video}`, body: () => ({ title: 'Renamed' }) },
  'DELETE /api/v1/lives/:liveId': { url: (s) => `/lives/${s.video}` },
  'POST /api/v1/lives/:liveId/key': { url: (s) => `/lives/${s.video}/key` },
  'PUT /api/v1/lives/:liveId/thumbnail': { url: (s) => `/lives/${s.video}/thumbnail` },
  'DELETE /api/v1/lives/:liveId/thumbnail': { url: (s) => `/lives/${s.video}/thumbnail` },
  // Moderation across servers (issue #35): the caller's own blocks and reports.
  'GET /api/v1/federation/channel-blocks': { url: () => '/federation/channel-blocks' },
  'POST /api/v1/federation/channel-blocks': { url: () => '/federation/channel-blocks', body: () => ({ handle: '@someone@remote.example' }) },
  'DELETE /api/v1/federation/channel-blocks/:actorId': { url: (s) => `/federation/channel-blocks/${s.video}` },
  'POST /api/v1/federation/reports': { url: () => '/federation/reports', body: (s) => ({ targetKind: 'video', targetId: s.video, reason: 'spam', text: 'Buy now' }) },
  // Federation admin (issue #35): 401 for visitors like any login-only call, 403 for non-admins.
  'GET /api/v1/admin/federation/blocks': { url: () => '/admin/federation/blocks' },
  'POST /api/v1/admin/federation/blocks': { url: () => '/admin/federation/blocks', body: () => ({ target: 'bad.example' }) },
  'DELETE /api/v1/admin/federation/blocks': { url: () => '/admin/federation/blocks?target=bad.example' },
  'GET /api/v1/admin/federation/policy': { url: () => '/admin/federation/policy' },
  'PUT /api/v1/admin/federation/policy': { url: () => '/admin/federation/policy', body: () => ({ mode: 'allowlist' }) },
  'POST /api/v1/admin/federation/allowed-hosts': { url: () => '/admin/federation/allowed-hosts', body: () => ({ host: 'friend.example' }) },
  'DELETE /api/v1/admin/federation/allowed-hosts': { url: () => '/admin/federation/allowed-hosts?host=friend.example' },
  'POST /api/v1/federation/follows': { url: () => '/federation/follows', body: () => ({ handle: '@someone@remote.example' }) },
  'DELETE /api/v1/federation/follows/:actorId': { url: (s) => `/federation/follows/${s.video}` },
  'GET /api/v1/federation/feed': { url: () => '/federation/feed' },
  'POST /api/v1/federation/videos/:videoId/rate': { url: (s) => `/federation/videos/${s.video}/rate`, body: () => ({ rating: 'like' }) },
  'POST /api/v1/federation/videos/:videoId/comments': { url: (s) => `/federation/videos/${s.video}/comments`, body: () => ({ content: 'Hi' }) },
  'POST /api/v1/federation/comments/:commentId/replies': { url: (s) => `/federation/comments/${s.comment}/replies`, body: () => ({ content: 'Hi' }) },
};

/** Authorization headers that name nobody: no token, a forged one, `Bearer undefined`, another scheme. */
const MALFORMED = ['Bearer abc.def.ghi', 'Bearer undefined', 'Bearer', 'Token abc'];

let t: TestContext;
let s: Scene;
let expired: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await createUser(t.ctx);
  const video = (await createVideo(t.ctx, owner)).id;
  const tweet = (await createTweet(t.ctx, owner)).id;
  const auth = await bearer(t.ctx, owner);
  const comment = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${video}`, headers: auth, payload: { content: 'first' } });
  const playlist = await t.app.inject({ method: 'POST', url: '/api/v1/playlists', headers: auth, payload: { name: 'Picks', videoId: video } });
  s = { owner, video, tweet, comment: comment.json().data._id, playlist: playlist.json().data.playlist._id };
  expired = `Bearer ${await t.ctx.tokens.sign({ id: owner.id, userName: owner.userName }, -30)}`;
});
afterAll(() => t.close());

async function send(key: string, c: Case, authorization: string | undefined, i: number) {
  const method = key.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const res = await t.app.inject({ method, url: `/api/v1${c.url(s)}`, headers, payload: c.body?.(s, i) });
  // A feed answers XML: its status is the outcome.
  const json = String(res.headers['content-type']).startsWith('application/json');
  return { status: res.statusCode, message: json ? (res.json() as { message: string }).message : '' };
}

/** Status, and the message of a failure (success messages may differ between calls, e.g. a view counted once). */
const outcome = (a: { status: number; message: string }) => (a.status >= 400 ? a : { status: a.status });

describe('Authorization header on every call', () => {
  it('has a case for every route in the route table, and none for a route that is gone', () => {
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    const cases = [...Object.keys(open), ...Object.keys(loginOnly)];
    expect(routes.filter((r) => !cases.includes(r))).toEqual([]);
    expect(cases.filter((c) => !routes.includes(c))).toEqual([]);
  });

  it('calls that need no login answer an expired or malformed token as they answer no token', async () => {
    let i = 0;
    for (const [key, c] of Object.entries(open)) {
      const anonymous = outcome(await send(key, c, undefined, i++));
      expect(outcome(await send(key, c, expired, i++)), `${key} with an expired token`).toEqual(anonymous);
      for (const header of MALFORMED) expect(outcome(await send(key, c, header, i++)), `${key} with '${header}'`).toEqual(anonymous);
    }
  });

  it("calls that need a login answer 401 'jwt expired' for an expired token and their own 401 for a malformed one", async () => {
    for (const [key, c] of Object.entries(loginOnly)) {
      const anonymous = await send(key, c, undefined, 0);
      expect(anonymous.status, `${key}: ${anonymous.message}`).toBe(401);
      expect(anonymous.message, key).not.toBe(messages.jwtExpired);
      expect(await send(key, c, expired, 0), key).toEqual({ status: 401, message: messages.jwtExpired });
      for (const header of MALFORMED) expect(await send(key, c, header, 0), `${key} with '${header}'`).toEqual(anonymous);
    }
  });

  it("GET /playlists without userName is the viewer's own list: 'jwt expired' for an expired token", async () => {
    const anonymous = await send('GET /api/v1/playlists', { url: () => '/playlists' }, undefined, 0);
    expect(anonymous).toEqual({ status: 401, message: 'Please login to view playlists' });
    expect(await send('GET /api/v1/playlists', { url: () => '/playlists' }, expired, 0)).toEqual({ status: 401, message: messages.jwtExpired });
  });

  it('refreshes with an expired access token in the header, and the new one works', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: s.owner.email, password: TEST_PASSWORD } });
    const { refreshToken } = login.json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auths/refresh-token',
      headers: { authorization: expired, 'content-type': 'application/json' },
      payload: { refreshToken },
    });
    expect(res.statusCode).toBe(200);
    const tokens = res.json().data;
    expect(tokens.refreshToken).not.toBe(refreshToken);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(me.json().data.user._id).toBe(s.owner.id);
  });

  it('answers public reads with an expired token as for a visitor: no viewer-specific state', async () => {
    const fan = await createUser(t.ctx);
    await t.app.inject({ method: 'POST', url: `/api/v1/subscriptions/toggle/${s.owner.id}`, headers: await bearer(t.ctx, fan) });
    const fanExpired = `Bearer ${await t.ctx.tokens.sign({ id: fan.id, userName: fan.userName }, -30)}`;
    const channel = (authorization: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/users/channel/${s.owner.userName}`, headers: { authorization } }).then((r) => r.json().data);
    expect((await channel((await bearer(t.ctx, fan)).authorization)).isSubscribed).toBe(true);
    expect((await channel(fanExpired)).isSubscribed).toBe(false);
  });

  it('takes body-less POSTs and DELETEs that carry a JSON content type (spec §7: every call does)', async () => {
    const fan = await createUser(t.ctx);
    const headers = { ...(await bearer(t.ctx, fan)), 'content-type': 'application/json' };
    const toggle = await t.app.inject({ method: 'POST', url: `/api/v1/subscriptions/toggle/${s.owner.id}`, headers });
    expect(toggle.json()).toMatchObject({ statusCode: 200, data: { isSubscribed: true } });
    const views = await t.app.inject({ method: 'POST', url: `/api/v1/videos/${s.video}/views`, headers });
    expect(views.statusCode).toBe(200);
    const logout = await t.app.inject({ method: 'POST', url: '/api/v1/auths/logout', headers });
    expect(logout.statusCode).toBe(200);
    const playlist = await t.app.inject({ method: 'POST', url: '/api/v1/playlists', headers, payload: { name: 'Temp' } });
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/playlists/${playlist.json().data.playlist._id}`, headers });
    expect(removed.json()).toMatchObject({ statusCode: 200, message: 'Playlist deleted successfully' });
    // A body that is there must still be JSON.
    const broken = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', headers, payload: '{"email":' });
    expect(broken.json()).toMatchObject({ statusCode: 400, message: 'Malformed JSON body' });
  });
});
