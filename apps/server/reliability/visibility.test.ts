import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/http.ts';
import { bearer, createTestApp, createUser, type TestContext } from '../test/harness.ts';
import { injectGetter, loadLikePlayer, ORIGINAL_BYTES, storeReadyVideo, type Fetched, type Getter } from '../test/media.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';

/**
 * Unpublished and not-ready videos are invisible to everyone but their owner on every read path.
 * The cases are keyed by the route table: a GET route added without a case (or a stated reason
 * why it carries no videos) fails the first test.
 */
interface Scene {
  owner: UserRow;
  other: UserRow;
  /** Published and ready: the control that each route does show something. */
  pub: string;
  pub2: string;
  /** The other user's own published video. */
  theirs: string;
  /** Unpublished (ready) and published-but-still-processing. */
  hidden: string[];
  commentOnPub: string;
  replyOnPub: string;
  commentOnHidden: string;
  replyOnHidden: string;
  ownerPlaylist: string;
  otherPlaylist: string;
  /** Every media request another user made while the hidden videos were still public. */
  mediaWhilePublic: Fetched[];
}

interface ReadCase {
  urls(s: Scene): string[];
  /** What the other user must see on these urls, so that a broken route cannot pass vacuously. */
  shown(s: Scene): string;
  /** The route is (also) the owner's own view: the owner sees the hidden videos there. */
  ownerSees?: boolean;
}

const cases: Record<string, ReadCase> = {
  'GET /api/v1/users/channel/:userName': { urls: (s) => [`/users/channel/${s.owner.userName}`], shown: (s) => s.owner.id },
  'GET /api/v1/comments/video/:entityId': {
    urls: (s) => [...s.hidden, s.pub].map((id) => `/comments/video/${id}`),
    shown: (s) => s.commentOnPub,
    ownerSees: true,
  },
  'GET /api/v1/comments/:entityType/:entityId/:parentCommentId': {
    urls: (s) => [`/comments/video/${s.hidden[0]}/${s.commentOnHidden}`, `/comments/video/${s.pub}/${s.commentOnPub}`],
    shown: (s) => s.replyOnPub,
    ownerSees: true,
  },
  'GET /api/v1/likes/video': { urls: () => ['/likes/video'], shown: (s) => s.pub, ownerSees: true },
  // The subscriptions feed: the subscribed channels' videos.
  'GET /api/v1/subscriptions': { urls: () => ['/subscriptions'], shown: (s) => s.pub },
  'GET /api/v1/subscriptions/channel/:channelId': { urls: (s) => [`/subscriptions/channel/${s.other.id}`], shown: (s) => s.owner.id },
  'GET /api/v1/playlists': {
    urls: (s) => ['/playlists', `/playlists?userName=${s.owner.userName}`, `/playlists?userName=${s.other.userName}`, `/playlists?videoId=${s.hidden[0]}`],
    shown: (s) => s.otherPlaylist,
  },
  'GET /api/v1/playlists/:playlistId': { urls: (s) => [`/playlists/${s.ownerPlaylist}`, `/playlists/${s.otherPlaylist}`], shown: (s) => s.pub, ownerSees: true },
  'GET /api/v1/videos': {
    urls: (s) => [
      '/videos',
      '/videos?query=glacier',
      '/videos?query=glacier&sortBy=views',
      '/videos?sortBy=uploadDate',
      '/videos?duration=short&uploadDate=today',
      '/videos?type=playlist&query=glacier',
      `/videos?type=channel&query=${s.owner.userName}`,
    ],
    shown: (s) => s.pub,
  },
  'GET /api/v1/videos/:id': { urls: (s) => [...s.hidden, s.pub].map((id) => `/videos/${id}`), shown: (s) => s.pub, ownerSees: true },
  'GET /api/v1/videos/:id/similar': { urls: (s) => [s.pub, ...s.hidden].map((id) => `/videos/${id}/similar`), shown: (s) => s.pub2 },
  'GET /api/v1/users/video/:userName': { urls: (s) => [`/users/video/${s.owner.userName}`], shown: (s) => s.pub, ownerSees: true },
  'GET /api/v1/users/watch-history': { urls: () => ['/users/watch-history'], shown: (s) => s.pub, ownerSees: true },
  'GET /api/v1/dashboard/channel-videos': { urls: () => ['/dashboard/channel-videos'], shown: (s) => s.theirs, ownerSees: true },
};

/** GET routes that answer a stored file rather than JSON, checked by the media section below. */
const fileRoutes = ['GET /api/v1/videos/:id/original', 'GET /api/v1/videos/video/:file'];

/** GET routes that carry no video at all, each with the reason. */
const videoFree: Record<string, string> = {
  'GET /api/v1/health': 'liveness only',
  'GET /api/v1/config': 'public limits and flags',
  'GET /api/v1/auths/email-verification': 'answers a mailed token',
  'GET /api/v1/users/me': "the caller's own account",
  'GET /api/v1/tweets/user/:channelId/:userId?': 'tweets carry text and images, never videos',
  'GET /api/v1/tweets/:tweetId/:userId?': 'tweets carry text and images, never videos',
  'GET /api/v1/comments/tweet/:entityId': 'comments of tweets',
  'GET /api/v1/videos/uploads/:uniqueId': "the caller's own upload session: chunk numbers only (uploads.test.ts: never another user's)",
  'GET /api/v1/dashboard/channel-stats': "the caller's own channel totals",
};

let t: TestContext;
let s: Scene;
const get: Getter = (url, headers) => injectGetter(t.app)(url, headers);

async function post(as: UserRow, url: string, body?: object) {
  const res = await call(t, 'POST', url, { as, body });
  expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.data;
}

beforeAll(async () => {
  t = await createTestApp();
  const owner = await createUser(t.ctx);
  const other = await createUser(t.ctx);
  const video = (title: string, by = owner) => storeReadyVideo(t.ctx, by, { title, duration: 30 }).then((v) => v.id);
  const pub = await video('Glacier walk at dawn');
  const pub2 = await video('Glacier walk at dusk');
  const theirs = await video('Glacier from above', other);
  const hidden = [await video('Glacier walk unpublished'), await video('Glacier walk processing')];

  // Everything a viewer can do with a video, done while the videos were still public.
  for (const id of [pub, ...hidden]) {
    for (const who of [owner, other]) {
      await post(who, `/likes/video/${id}/like`);
      await post(who, `/videos/${id}/views`, { position: 5 });
    }
  }
  await post(other, `/subscriptions/toggle/${owner.id}`);
  const ownerPlaylist = (await post(owner, '/playlists', { name: 'Glacier mix', videoId: hidden[0] })).playlist._id;
  const otherPlaylist = (await post(other, '/playlists', { name: 'Glacier picks', videoId: hidden[1] })).playlist._id;
  for (const id of [pub, hidden[1]!]) await post(owner, `/playlists/${ownerPlaylist}/${id}`);
  for (const id of [hidden[0]!, pub]) await post(other, `/playlists/${otherPlaylist}/${id}`);
  const commentOnPub = (await post(other, `/comments/video/${pub}`, { content: 'lovely' }))._id;
  const replyOnPub = (await post(owner, `/comments/video/${pub}/${commentOnPub}`, { content: 'thanks' }))._id;
  const commentOnHidden = (await post(other, `/comments/video/${hidden[0]}`, { content: 'early look' }))._id;
  const replyOnHidden = (await post(owner, `/comments/video/${hidden[0]}/${commentOnHidden}`, { content: 'shh' }))._id;

  const mediaWhilePublic: Fetched[] = [];
  for (const id of hidden) mediaWhilePublic.push(...(await loadLikePlayer(get, (await call(t, 'GET', `/videos/${id}`, { as: other })).body.data.video)));
  expect(mediaWhilePublic.length).toBeGreaterThan(10);
  expect(mediaWhilePublic.every((f) => f.status === 200)).toBe(true);

  await t.ctx.db.execute(sql`UPDATE videos SET is_published = false WHERE id = ${hidden[0]}`);
  await t.ctx.db.execute(sql`UPDATE videos SET status = 'processing' WHERE id = ${hidden[1]}`);
  s = { owner, other, pub, pub2, theirs, hidden, commentOnPub, replyOnPub, commentOnHidden, replyOnHidden, ownerPlaylist, otherPlaylist, mediaWhilePublic };
});
afterAll(() => t.close());

it('has a case (or a reason it carries no videos) for every GET route in the route table, and none for a route that is gone', () => {
  const reads = t.app.routeTable.filter((r) => r.method === 'GET').map((r) => `${r.method} ${r.url}`);
  expect(reads.filter((r) => !(r in cases) && !(r in videoFree) && !fileRoutes.includes(r))).toEqual([]);
  expect([...Object.keys(cases), ...Object.keys(videoFree), ...fileRoutes].filter((k) => !reads.includes(k))).toEqual([]);
});

/** Every answer body on the case's urls, as one text (the urls themselves name hidden ids). */
async function read(c: ReadCase, as?: UserRow) {
  const answers = [];
  for (const url of c.urls(s)) {
    const res = await call(t, 'GET', url, { as });
    expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBeLessThan(500);
    answers.push(JSON.stringify(res.body));
  }
  return answers.join('\n');
}

describe.each(Object.entries(cases))('%s', (_key, c) => {
  const secrets = () => [...s.hidden, s.commentOnHidden, s.replyOnHidden];
  it('never shows a hidden video (or its comments) to a visitor or another user', async () => {
    for (const as of [undefined, s.other]) {
      const text = await read(c, as);
      for (const secret of secrets()) expect(text, `${as ? 'other user' : 'anonymous'} sees ${secret}`).not.toContain(secret);
    }
    expect(await read(c, s.other)).toContain(c.shown(s));
  });
});

describe.each(Object.entries(cases).filter(([, c]) => c.ownerSees))('%s', (_key, c) => {
  it("shows them to their owner in the owner's own view", async () => {
    expect(await read(c, s.owner)).toContain(s.hidden[0]);
  });
});

describe('media files', () => {
  it('no longer serves a hidden video\'s files at the URLs handed out while it was public, nor at their bare keys', async () => {
    for (const headers of [{}, await bearer(t.ctx, s.other)]) {
      for (const f of s.mediaWhilePublic) {
        const bare = f.url.replace(/^\/media\/videos\/([^/]+)\/[^/]+\//, '/media/videos/$1/');
        for (const url of [f.url, bare]) expect((await get(url, headers)).status, url).toBe(404);
      }
    }
  });

  it('serves every file of the hidden videos to their owner, through the links the API gives them', async () => {
    for (const id of s.hidden) {
      const fetched = await loadLikePlayer(get, (await call(t, 'GET', `/videos/${id}`, { as: s.owner })).body.data.video);
      expect(fetched.length).toBe(s.mediaWhilePublic.length / s.hidden.length);
      expect(fetched.every((f) => f.status === 200 && f.headers['cache-control'] === 'private, no-store')).toBe(true);
    }
  });

  it('gives the progressive mp4 (videoFile.publicId) to whoever may see the video, never cached publicly', async () => {
    const pub = await get(`/api/v1/videos/video/${s.pub}.mp4`);
    expect([pub.status, pub.headers['cache-control']]).toEqual([200, 'private, no-store']);
    for (const id of s.hidden) {
      const url = `/api/v1/videos/video/${id}.mp4`;
      expect((await get(url)).status).toBe(404);
      expect((await get(url, await bearer(t.ctx, s.other))).status).toBe(404);
      expect((await get(url, await bearer(t.ctx, s.owner))).status).toBe(200);
    }
  });

  it('gives a video\'s original to its owner only, public or not', async () => {
    for (const id of [s.pub, ...s.hidden]) {
      const url = `/api/v1/videos/${id}/original`;
      expect((await get(url)).status).toBe(401);
      const theirs = await get(url, await bearer(t.ctx, s.other));
      expect([theirs.status, theirs.body.includes(ORIGINAL_BYTES)]).toEqual([403, false]);
      expect((await get(url, await bearer(t.ctx, s.owner))).body.equals(ORIGINAL_BYTES)).toBe(true);
    }
  });
});
