import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/http.ts';
import { createTestApp, createTweet, createUser, createVideo, TEST_PASSWORD, TINY_PNG, type TestContext } from '../test/harness.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';

/**
 * Every write endpoint x {anonymous, another user, owner}. The cases are keyed by the route table,
 * so a write route added without a case here fails the first test.
 */
type Method = 'POST' | 'PATCH' | 'DELETE';
interface Req {
  url: string;
  body?: object | FormData;
  /** The owner acting, when the case needs a fresh account (a password change cannot repeat). */
  owner?: UserRow;
}
interface Case {
  /** Builds a fresh resource owned by `owner` and the request that writes to it. */
  build(owner: UserRow): Promise<Req>;
  /** Expected status without a login (401 unless the route is open to visitors). */
  anonymous?: number;
  /** Expected status for someone else; null where the route acts only on the caller's own data. */
  other: number | null;
  /** Expected success status for the owner (or any logged-in caller for own-data routes). */
  owner: number;
}

const form = (fields: Record<string, string | Blob>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};
const png = () => new Blob([TINY_PNG], { type: 'image/png' });
let uploads = 0;

let t: TestContext;
let owner: UserRow;
let other: UserRow;

async function newComment(by: UserRow) {
  const video = await createVideo(t.ctx, by);
  const res = await call(t, 'POST', `/comments/video/${video.id}`, { as: by, body: { content: 'first' } });
  return res.body.data._id as string;
}
async function newPlaylist(by: UserRow, videoId?: string) {
  const res = await call(t, 'POST', '/playlists', { as: by, body: { name: 'Mix', ...(videoId ? { videoId } : {}) } });
  return res.body.data.playlist._id as string;
}

const cases: Record<string, Case> = {
  'POST /api/v1/tweets': { build: async () => ({ url: '/tweets', body: form({ content: 'hello' }) }), other: null, owner: 201 },
  'PATCH /api/v1/tweets/:tweetId': {
    build: async (o) => ({ url: `/tweets/${(await createTweet(t.ctx, o)).id}`, body: form({ content: 'edited' }) }),
    other: 403,
    owner: 200,
  },
  'DELETE /api/v1/tweets/:tweetId': { build: async (o) => ({ url: `/tweets/${(await createTweet(t.ctx, o)).id}` }), other: 403, owner: 200 },
  'POST /api/v1/comments/:entityType/:entityId/:parentId?': {
    build: async (o) => ({ url: `/comments/video/${(await createVideo(t.ctx, o)).id}`, body: { content: 'hi' } }),
    other: null,
    owner: 201,
  },
  'PATCH /api/v1/comments/:commentId': { build: async (o) => ({ url: `/comments/${await newComment(o)}`, body: { content: 'changed' } }), other: 403, owner: 200 },
  'DELETE /api/v1/comments/:commentId': { build: async (o) => ({ url: `/comments/${await newComment(o)}` }), other: 403, owner: 200 },
  'POST /api/v1/likes/:entityType/:entityId/like': {
    build: async (o) => ({ url: `/likes/video/${(await createVideo(t.ctx, o)).id}/like` }),
    other: null,
    owner: 200,
  },
  'POST /api/v1/likes/:entityType/:entityId/dislike': {
    build: async (o) => ({ url: `/likes/tweet/${(await createTweet(t.ctx, o)).id}/dislike` }),
    other: null,
    owner: 200,
  },
  'POST /api/v1/subscriptions/toggle/:channelId': {
    build: async () => ({ url: `/subscriptions/toggle/${(await createUser(t.ctx)).id}` }),
    other: null,
    owner: 200,
  },
  'POST /api/v1/playlists': { build: async () => ({ url: '/playlists', body: { name: 'New list' } }), other: null, owner: 201 },
  'PATCH /api/v1/playlists/:playlistId': { build: async (o) => ({ url: `/playlists/${await newPlaylist(o)}`, body: { name: 'Renamed' } }), other: 403, owner: 200 },
  'DELETE /api/v1/playlists/:playlistId': { build: async (o) => ({ url: `/playlists/${await newPlaylist(o)}` }), other: 403, owner: 200 },
  'POST /api/v1/playlists/:playlistId/:videoId': {
    build: async (o) => ({ url: `/playlists/${await newPlaylist(o)}/${(await createVideo(t.ctx, o)).id}` }),
    other: 403,
    owner: 200,
  },
  'DELETE /api/v1/playlists/:playlistId/:videoId': {
    build: async (o) => {
      const video = await createVideo(t.ctx, o);
      return { url: `/playlists/${await newPlaylist(o, video.id)}/${video.id}` };
    },
    other: 403,
    owner: 200,
  },
  'PATCH /api/v1/users/me': {
    build: async () => {
      const name = `renamed${++uploads}${Date.now()}`;
      return { url: '/users/me', body: { fullName: 'Renamed', userName: name } };
    },
    other: null,
    owner: 200,
  },
  'PATCH /api/v1/users/password': {
    build: async () => ({
      url: '/users/password',
      body: { curPassword: TEST_PASSWORD, newPassword: 'another-secret', confirmPassword: 'another-secret' },
      owner: await createUser(t.ctx),
    }),
    other: null,
    owner: 200,
  },
  'PATCH /api/v1/users/avatar': { build: async () => ({ url: '/users/avatar', body: form({ image: png() }) }), other: null, owner: 200 },
  'PATCH /api/v1/users/cover-image': { build: async () => ({ url: '/users/cover-image', body: form({ image: png() }) }), other: null, owner: 200 },
  'POST /api/v1/videos': {
    build: async () => ({
      url: `/videos?uniqueId=authz${++uploads}&chunkNumber=0&totalChunks=2`,
      body: form({ video: new Blob([Buffer.alloc(1024, 1)]) }),
    }),
    other: null,
    owner: 200,
  },
  // Visitors count views too; an unpublished video is not there for anyone but its owner.
  'POST /api/v1/videos/:id/views': {
    build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o, { isPublished: false })).id}/views`, body: { position: 3 } }),
    anonymous: 404,
    other: 404,
    owner: 200,
  },
  'PATCH /api/v1/videos/:id': { build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o)).id}`, body: { title: 'New title' } }), other: 403, owner: 200 },
  'PATCH /api/v1/videos/:id/publish': {
    build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o, { isPublished: false })).id}/publish`, body: { isPublished: true } }),
    other: 403,
    owner: 200,
  },
  'DELETE /api/v1/videos/:id': { build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o)).id}` }), other: 403, owner: 200 },
};

/** Writes open to visitors by nature, each with the reason it needs no login. */
const publicWrites: Record<string, string> = {
  'POST /api/v1/auths/register': 'creates the account: there is no caller yet',
  'POST /api/v1/auths/login': 'exchanges a password for tokens: the caller is proving who they are',
  'POST /api/v1/auths/logout': 'ends the session named by the refresh token it carries; a stale or missing one is a no-op',
  'POST /api/v1/auths/forgot-password-mail': 'for people who cannot log in; answers the same for every address',
  'POST /api/v1/auths/refresh-token': 'authenticated by the refresh token itself, not the (expired) access token',
  'POST /api/v1/auths/password-reset': 'authenticated by the single-use token mailed to the account',
};

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx);
  other = await createUser(t.ctx);
});
afterAll(() => t.close());

it('has a case (or a stated reason to be public) for every write route in the route table, and none for a route that is gone', () => {
  const writes = t.app.routeTable.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`);
  expect(writes.filter((w) => !(w in cases) && !(w in publicWrites))).toEqual([]);
  expect([...Object.keys(cases), ...Object.keys(publicWrites)].filter((k) => !writes.includes(k))).toEqual([]);
});

describe.each(Object.entries(cases))('%s', (key, c) => {
  const method = key.split(' ')[0] as Method;

  it(`is ${c.anonymous ?? 401} for an anonymous caller and changes nothing`, async () => {
    const req = await c.build(owner);
    const res = await call(t, method, req.url, { body: req.body });
    expect(res.status, JSON.stringify(res.body)).toBe(c.anonymous ?? 401);
    // The same request still succeeds for the owner afterwards: nothing was consumed.
    const again = await call(t, method, req.url, { as: req.owner ?? owner, body: req.body });
    expect(again.status, JSON.stringify(again.body)).toBe(c.owner);
  });

});

// Routes that act on someone's resource (not only on the caller's own data).
describe.each(Object.entries(cases).filter(([, c]) => c.other !== null))('%s', (key, c) => {
  const method = key.split(' ')[0] as Method;

  it('is refused for another user and changes nothing', async () => {
    const req = await c.build(owner);
    const res = await call(t, method, req.url, { as: other, body: req.body });
    expect(res.status, JSON.stringify(res.body)).toBe(c.other);
    const again = await call(t, method, req.url, { as: req.owner ?? owner, body: req.body });
    expect(again.status, JSON.stringify(again.body)).toBe(c.owner);
  });
});
