import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/http.ts';
import { bearer, createTestApp, createUser, type TestContext } from '../test/harness.ts';
import { injectGetter, loadLikePlayer, ORIGINAL_BYTES, storeReadyVideo, type Fetched, type Getter } from '../test/media.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';
import { WatchedWordsService } from '../src/modules/watched-words/watched-words.service.ts';
import { rollupAnalytics } from '../src/modules/analytics/rollup.ts';
import { newId } from '../src/lib/ids.ts';

/**
 * Private (unpublished or scheduled), not-ready and taken-down videos are invisible to everyone but
 * their owner on every read path, and so is everything of a suspended account (its videos, comments,
 * channel). An unlisted video is in no list for others, yet opens by its link with working media.
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
  /**
   * Unpublished (ready), published-but-still-processing, taken down by a moderator, made private
   * through the edit route, and scheduled for a later publication.
   */
  hidden: string[];
  /** Unlisted: absent from every list for others, shown by a direct GET (ADR 013). */
  unlisted: string;
  /** A suspended account, its published video and its comment on `pub`. */
  banned: UserRow;
  bannedVideo: string;
  bannedComment: string;
  commentOnPub: string;
  replyOnPub: string;
  commentOnHidden: string;
  replyOnHidden: string;
  /** Held for review (a watched word) on the public video: its author and the owner only. */
  heldOnPub: string;
  ownerPlaylist: string;
  otherPlaylist: string;
  /** Every media request another user made while the hidden videos were still public. */
  mediaWhilePublic: Fetched[];
  /** The other user's private feed token (they subscribe to the owner). */
  feedToken: string;
}

interface ReadCase {
  urls(s: Scene): string[];
  /** What the other user must see on these urls, so that a broken route cannot pass vacuously. */
  shown(s: Scene): string;
  /** The route is (also) the owner's own view: the owner sees the hidden videos there. */
  ownerSees?: boolean;
  /** Why this route may name the unlisted video (not a list: e.g. the caller's own data about it). */
  namesUnlisted?: string;
}

const cases: Record<string, ReadCase> = {
  // The caller's own data: their own videos, hidden ones included.
  'GET /api/v1/users/me/export': {
    urls: () => ['/users/me/export'],
    shown: (s) => s.theirs,
    ownerSees: true,
    namesUnlisted: "the caller's own comment, like and history entry on a video they can open by its link",
  },
  'GET /api/v1/users/channel/:userName': {
    urls: (s) => [`/users/channel/${s.owner.userName}`, `/users/channel/${s.banned.userName}`],
    shown: (s) => s.owner.id,
  },
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
      `/videos?type=channel&query=${s.banned.userName}`,
    ],
    shown: (s) => s.pub,
  },
  'GET /api/v1/videos/:id': { urls: (s) => [...s.hidden, s.pub].map((id) => `/videos/${id}`), shown: (s) => s.pub, ownerSees: true },
  'GET /api/v1/videos/:id/captions': {
    urls: (s) => [...s.hidden, s.bannedVideo, s.pub].map((id) => `/videos/${id}/captions`),
    shown: (s) => s.pub,
    ownerSees: true,
  },
  'GET /api/v1/videos/:id/similar': { urls: (s) => [s.pub, s.unlisted, ...s.hidden].map((id) => `/videos/${id}/similar`), shown: (s) => s.pub2 },
  'GET /api/v1/users/video/:userName': {
    urls: (s) => [`/users/video/${s.owner.userName}`, `/users/video/${s.banned.userName}`],
    shown: (s) => s.pub,
    ownerSees: true,
  },
  'GET /api/v1/users/watch-history': { urls: () => ['/users/watch-history'], shown: (s) => s.pub, ownerSees: true },
  // Anonymous for everyone (an embedding site has no session): even the owner gets no private video.
  'GET /api/v1/oembed': {
    urls: (s) => [...s.hidden, s.bannedVideo, s.pub].map((id) => `/oembed?url=${encodeURIComponent(`http://glimpse.test/video/${id}`)}`),
    shown: (s) => s.pub,
  },
  'GET /api/v1/dashboard/channel-videos': { urls: () => ['/dashboard/channel-videos'], shown: (s) => s.theirs, ownerSees: true },
  // RSS and Atom (XML): the owner's channel, a suspended channel, and the other user's private subscriptions feed.
  'GET /api/v1/feeds/channels/:userName': {
    urls: (s) => [`/feeds/channels/${s.owner.userName}`, `/feeds/channels/${s.owner.userName}?format=atom`, `/feeds/channels/${s.banned.userName}`],
    shown: (s) => s.pub,
  },
  'GET /api/v1/feeds/subscriptions/:token': {
    urls: (s) => [`/feeds/subscriptions/${s.feedToken}`, `/feeds/subscriptions/${s.feedToken}?format=atom`],
    shown: (s) => s.pub,
  },
  // The caller's own analytics: their channel's top videos, and one video of theirs (others get 403, never figures).
  'GET /api/v1/analytics/channel': { urls: () => ['/analytics/channel?range=lifetime'], shown: (s) => s.theirs, ownerSees: true },
  'GET /api/v1/analytics/channel.csv': { urls: () => ['/analytics/channel.csv'], shown: () => 'date,views' },
  'GET /api/v1/analytics/videos/:id': {
    urls: (s) => [...s.hidden, s.bannedVideo, s.pub, s.theirs].map((id) => `/analytics/videos/${id}`),
    shown: (s) => s.theirs,
    ownerSees: true,
  },
  'GET /api/v1/analytics/videos/:id.csv': {
    urls: (s) => [...s.hidden, s.bannedVideo, s.pub, s.theirs].map((id) => `/analytics/videos/${id}.csv`),
    shown: () => 'date,views',
  },
};

/** GET routes that answer a stored file rather than JSON, checked by the media section below. */
const fileRoutes = ['GET /api/v1/videos/:id/original', 'GET /api/v1/videos/video/:file'];

/** GET routes that carry no video at all, each with the reason. */
const videoFree: Record<string, string> = {
  'GET /api/v1/health': 'liveness only',
  'GET /api/v1/federation/feed': "metadata of other servers' videos the caller follows: no video of this server",
  'GET /api/v1/federation/channels/:actorId': "another server's channel and its videos' metadata: no video of this server",
  'GET /api/v1/federation/videos/:videoId': "another server's video (metadata): no video of this server",
  'GET /api/v1/federation/comments': 'comments only, refused (404) unless the viewer may open the video (federation two-instance and documents tests)',
  'GET /api/v1/admin/federation/blocks': 'blocked hosts and remote accounts, admins only (authorization.test.ts)',
  'GET /api/v1/admin/federation/policy': 'federation mode and allowed hosts, admins only (authorization.test.ts)',
  'GET /api/v1/config': 'public limits and flags',
  'GET /api/v1/federation/channel-blocks': "the caller's own blocks of remote accounts, login only: no video",
  'GET /api/v1/lives': "the caller's own lives, login only (lives.test.ts): no video",
  'GET /api/v1/lives/:liveId': 'a live, not a video; a private one is 404 to everyone but its owner (lives.test.ts)',
  'GET /api/v1/lives/:liveId/hls/:sessionId/:access/*': "a live's playlists and segments; a private live's need its owner's access key in the path (lives.test.ts)",
  'GET /api/v1/lives/:liveId/chat/stream': 'chat events of a live the viewer may open, 404 otherwise (live-chat.test.ts)',
  'GET /api/v1/lives/:liveId/thumbnail/:access/:file': "a live's own thumbnail, not a video's; a private live's needs its owner's access key in the path (lives.test.ts)",
  'GET /api/v1/comments/live/:entityId': 'comments on a live the viewer may open, 404 otherwise (live-chat.test.ts)',
  'GET /api/v1/admin/settings': 'instance settings, admins only (authorization.test.ts)',
  'GET /api/v1/admin/overview': 'staff only (authorization.test.ts): counts and failed videos for moderators',
  'GET /api/v1/admin/users': 'staff only (authorization.test.ts): accounts, no videos',
  'GET /api/v1/instance/about': "the instance's name, description and about text",
  'GET /api/v1/moderation/registrations': 'accounts waiting for approval, staff only (authorization.test.ts)',
  'GET /api/v1/auths/email-verification': 'answers a mailed token',
  'GET /api/v1/users/me': "the caller's own account",
  'GET /api/v1/users/me/storage': "the caller's own byte counts and quotas",
  'GET /api/v1/tweets/user/:channelId/:userId?': 'tweets carry text and images, never videos',
  'GET /api/v1/tweets/:tweetId/:userId?': 'tweets carry text and images, never videos',
  'GET /api/v1/comments/tweet/:entityId': 'comments of tweets',
  'GET /api/v1/videos/uploads/:uniqueId': "the caller's own upload session: chunk numbers only (uploads.test.ts: never another user's)",
  'GET /api/v1/dashboard/channel-stats': "the caller's own channel totals",
  'GET /api/v1/admin/watched-words': 'the watched words, admins only (authorization.test.ts)',
  'GET /api/v1/moderation/held-tweets': 'held tweets (text and images), moderators only (authorization.test.ts)',
  'GET /api/v1/channel-blocks': "the caller's own block list: users only",
  'GET /api/v1/notifications/settings': "the caller's own mail preferences: a mode per type",
  'GET /api/v1/comments/held': "held comments on the caller's own videos and tweets only (creator-moderation.test.ts: never another's)",
  'GET /api/v1/reports/mine': "the caller's own reports: what they reported and its state, never a video's media",
  'GET /api/v1/notifications': "the caller's own notifications: ids and titles as they were when told (notifications.test.ts: fan-out checks visibility), never media",
  'GET /api/v1/notifications/unread-count': "the caller's own count",
  'GET /api/v1/notifications/stream': "the caller's own unread count, live",
  'GET /api/v1/moderation/reports': 'staff only (authorization.test.ts): the queue shows reported items in context on purpose',
  'GET /api/v1/moderation/log': 'staff only (authorization.test.ts): actions and ids',
  'GET /api/v1/feeds/token': "whether the caller has a private feed token, and since when",
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
  const hidden = [
    await video('Glacier walk unpublished'),
    await video('Glacier walk processing'),
    await video('Glacier walk taken down'),
    await video('Glacier walk private'),
    await video('Glacier walk scheduled'),
  ];
  const unlisted = await video('Glacier walk unlisted');
  const banned = await createUser(t.ctx);
  const bannedVideo = await video('Glacier walk of a suspended account', banned);
  const moderator = await createUser(t.ctx, { role: 'moderator' });

  // Captions on each video (their URLs, their master playlist renditions, their text in search).
  const caption = { label: 'English', text: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThe glacier speaks\n' };
  for (const id of [pub, ...hidden, unlisted]) await post(owner, `/videos/${id}/captions/en`, caption);
  await post(banned, `/videos/${bannedVideo}/captions/en`, caption);

  // Everything a viewer can do with a video, done while the videos were still public.
  for (const id of [pub, ...hidden, unlisted, bannedVideo]) {
    for (const who of [owner, other]) {
      await post(who, `/likes/video/${id}/like`);
      await post(who, `/videos/${id}/views`, { position: 5 });
    }
  }
  // Analytics: every video watched while public (and the other user's own), rolled up at once.
  for (const id of [pub, ...hidden, unlisted, bannedVideo, theirs]) {
    for (const who of [owner, other]) await post(who, '/analytics/heartbeat', { videoId: id, sessionId: newId(), source: 'home', positions: [1, 2, 3] });
  }
  await rollupAnalytics(t.ctx, new Date(Date.now() + 2 * 3_600_000));
  await post(other, `/subscriptions/toggle/${owner.id}`);
  const feedToken = (await post(other, '/feeds/token')).token as string;
  const ownerPlaylist = (await post(owner, '/playlists', { name: 'Glacier mix', videoId: hidden[0] })).playlist._id;
  const otherPlaylist = (await post(other, '/playlists', { name: 'Glacier picks', videoId: hidden[1] })).playlist._id;
  for (const id of [pub, hidden[1]!]) await post(owner, `/playlists/${ownerPlaylist}/${id}`);
  for (const id of [hidden[0]!, hidden[2]!, ...hidden.slice(3), unlisted, bannedVideo, pub]) await post(other, `/playlists/${otherPlaylist}/${id}`);
  const commentOnPub = (await post(other, `/comments/video/${pub}`, { content: 'lovely' }))._id;
  const replyOnPub = (await post(owner, `/comments/video/${pub}/${commentOnPub}`, { content: 'thanks' }))._id;
  const commentOnHidden = (await post(other, `/comments/video/${hidden[0]}`, { content: 'early look' }))._id;
  await post(other, `/comments/video/${unlisted}`, { content: 'found it' });
  const replyOnHidden = (await post(owner, `/comments/video/${hidden[0]}/${commentOnHidden}`, { content: 'shh' }))._id;
  await new WatchedWordsService(t.ctx).add('spoiler');
  const heldOnPub = (await post(await createUser(t.ctx), `/comments/video/${pub}/${commentOnPub}`, { content: 'spoiler: glacier melts' }))._id;
  const bannedComment = (await post(banned, `/comments/video/${pub}`, { content: 'buy followers' }))._id;
  await post(banned, `/likes/comment/${commentOnPub}/like`);

  const mediaWhilePublic: Fetched[] = [];
  for (const id of [...hidden, unlisted, bannedVideo]) mediaWhilePublic.push(...(await loadLikePlayer(get, (await call(t, 'GET', `/videos/${id}`, { as: other })).body.data.video)));
  expect(mediaWhilePublic.length).toBeGreaterThan(10);
  expect(mediaWhilePublic.every((f) => f.status === 200)).toBe(true);

  await t.ctx.db.execute(sql`UPDATE videos SET privacy = 'private' WHERE id = ${hidden[0]}`);
  await t.ctx.db.execute(sql`UPDATE videos SET status = 'processing' WHERE id = ${hidden[1]}`);
  // Moderation goes through its own routes: a take-down and a suspension.
  await post(moderator, `/moderation/targets/video/${hidden[2]}/take-down`, { reason: 'Spam' });
  await post(moderator, `/moderation/users/${banned.id}/suspend`, { reason: 'Spam' });
  // Privacy through the owner's edit route.
  const edit = async (id: string, body: object) => expect((await call(t, 'PATCH', `/videos/${id}`, { as: owner, body })).status).toBe(200);
  await edit(hidden[3]!, { privacy: 'private' });
  await edit(hidden[4]!, { publishAt: new Date(Date.now() + 24 * 3600_000).toISOString() });
  await edit(unlisted, { privacy: 'unlisted' });
  s = {
    ...{ owner, other, pub, pub2, theirs, hidden, unlisted, banned, bannedVideo, bannedComment, commentOnPub, replyOnPub, heldOnPub },
    ...{ commentOnHidden, replyOnHidden, ownerPlaylist, otherPlaylist, mediaWhilePublic, feedToken },
  };
});
afterAll(() => t.close());

it('has a case (or a reason it carries no videos) for every GET route in the route table, and none for a route that is gone', () => {
  const reads = t.app.routeTable.filter((r) => r.method === 'GET').map((r) => `${r.method} ${r.url}`);
  expect(reads.filter((r) => !(r in cases) && !(r in videoFree) && !fileRoutes.includes(r))).toEqual([]);
  expect([...Object.keys(cases), ...Object.keys(videoFree), ...fileRoutes].filter((k) => !reads.includes(k))).toEqual([]);
});

/** Every answer body on the case's urls, as one text (the urls themselves name hidden ids); raw, as feeds are XML. */
async function read(c: ReadCase, as?: UserRow) {
  const answers = [];
  for (const url of c.urls(s)) {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: as ? await bearer(t.ctx, as) : {} });
    expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
    answers.push(res.body);
  }
  return answers.join('\n');
}

describe.each(Object.entries(cases))('%s', (_key, c) => {
  // The unlisted video is a secret of every list (a direct GET of it is checked under media files).
  const secrets = () => [...s.hidden, ...(c.namesUnlisted ? [] : [s.unlisted]), s.commentOnHidden, s.replyOnHidden, s.heldOnPub, s.bannedVideo, s.bannedComment, s.banned.id];
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

describe('analytics heartbeats', () => {
  it('are refused (404) on a hidden video for a visitor and another user, and taken from its owner', async () => {
    const beat = (videoId: string, as?: UserRow) =>
      call(t, 'POST', '/analytics/heartbeat', { as, body: { videoId, sessionId: newId(), source: 'direct', positions: [4] } });
    for (const id of [...s.hidden, s.bannedVideo]) {
      for (const as of [undefined, s.other]) expect((await beat(id, as)).status, id).toBe(404);
    }
    for (const id of s.hidden) expect((await beat(id, s.owner)).status, id).toBe(202);
    for (const as of [undefined, s.other]) expect((await beat(s.unlisted, as)).status).toBe(202);
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
      expect(fetched.length).toBe(s.mediaWhilePublic.length / (s.hidden.length + 2));
      expect(fetched.every((f) => f.status === 200 && f.headers['cache-control'] === 'private, no-store')).toBe(true);
    }
  });

  it('opens an unlisted video by its link for anyone, its media through signed links only, never public immutable URLs', async () => {
    for (const as of [undefined, s.other]) {
      const video = (await call(t, 'GET', `/videos/${s.unlisted}`, { as })).body.data.video;
      expect(video).toMatchObject({ privacy: 'unlisted', isPublished: false });
      expect(video.videoFile.url).toMatch(/\/exp-\d+-/);
      const fetched = await loadLikePlayer(get, video);
      expect(fetched.length).toBeGreaterThan(2);
      expect(fetched.every((f) => f.status === 200 && f.headers['cache-control'] === 'private, no-store')).toBe(true);
    }
  });

  it('gives the progressive mp4 (videoFile.publicId) to whoever may see the video, never cached publicly', async () => {
    const pub = await get(`/api/v1/videos/video/${s.pub}.mp4`);
    expect([pub.status, pub.headers['cache-control']]).toEqual([200, 'private, no-store']);
    expect((await get(`/api/v1/videos/video/${s.unlisted}.mp4`)).status).toBe(200);
    for (const id of [...s.hidden, s.bannedVideo]) {
      const url = `/api/v1/videos/video/${id}.mp4`;
      expect((await get(url)).status).toBe(404);
      expect((await get(url, await bearer(t.ctx, s.other))).status).toBe(404);
      if (id !== s.bannedVideo) expect((await get(url, await bearer(t.ctx, s.owner))).status).toBe(200);
    }
  });

  it('gives the poster at videoFile.publicId without `.mp4` (a spec client\'s `<video poster>`) by the same rule', async () => {
    const pub = await get(`/api/v1/videos/video/${s.pub}`);
    expect([pub.status, pub.headers['cache-control'], pub.body.toString()]).toEqual([200, 'private, no-store', 'poster image']);
    expect((await get(`/api/v1/videos/video/${s.unlisted}`)).status).toBe(200);
    for (const id of [...s.hidden, s.bannedVideo]) {
      const url = `/api/v1/videos/video/${id}`;
      expect((await get(url)).status).toBe(404);
      expect((await get(url, await bearer(t.ctx, s.other))).status).toBe(404);
      if (id !== s.bannedVideo) expect((await get(url, await bearer(t.ctx, s.owner))).status).toBe(200);
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
