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
  'POST /api/v1/videos/:id/views': { url: (s) => `/videos/${s.video}/views` },
  'GET /api/v1/videos/video/:file': { url: (s) => `/videos/video/${s.video}.mp4` },
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
  'POST /api/v1/videos': { url: () => '/videos?uniqueId=u1&chunkNumber=1&totalChunks=1' },
  'GET /api/v1/videos/uploads/:uniqueId': { url: () => '/videos/uploads/u1' },
  'GET /api/v1/users/watch-history': { url: () => '/users/watch-history' },
  'GET /api/v1/dashboard/channel-stats': { url: () => '/dashboard/channel-stats' },
  'GET /api/v1/dashboard/channel-videos': { url: () => '/dashboard/channel-videos' },
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
  return { status: res.statusCode, message: (res.json() as { message: string }).message };
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
