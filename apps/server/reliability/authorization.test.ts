import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/http.ts';
import { createTestApp, createTweet, createUser, createVideo, TEST_PASSWORD, TINY_PNG, type TestContext } from '../test/harness.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';
import { CaptionsService } from '../src/modules/captions/captions.service.ts';
import { WatchedWordsService } from '../src/modules/watched-words/watched-words.service.ts';
import { NotificationsRepository } from '../src/modules/notifications/notifications.repository.ts';
import { UnsubscribeTokens } from '../src/modules/notifications/unsubscribe-token.ts';
import { newId } from '../src/lib/ids.ts';
import { EventsRepository } from '../src/events/events.repository.ts';
import { FederationRepository } from '../src/modules/federation/federation.repository.ts';

/**
 * Every write endpoint x {anonymous, another user, moderator, admin, owner}, and every staff route
 * (under /admin and /moderation, any method) x {anonymous, user, moderator, admin}. The cases are
 * keyed by the route table, so a route added without a case here fails the first test.
 */
type Method = 'POST' | 'PATCH' | 'PUT' | 'DELETE';
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
  /** What staff get on someone else's resource; `other`'s status unless their role gives them a right here. */
  moderator?: number;
  admin?: number;
}

/** A staff route: visitors get 401 and users 403; moderators are refused what only admins may do. */
interface StaffCase {
  build(): Promise<Req>;
  moderator: number;
  admin: number;
}
const STAFF_ROUTE = /^\/api\/v1\/(admin|moderation)\//;

const form = (fields: Record<string, string | Blob>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
};
const png = () => new Blob([TINY_PNG], { type: 'image/png' });
let uploads = 0;
const CAPTION = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n';

let t: TestContext;
let owner: UserRow;
let other: UserRow;
/** Writes comments on the owner's content (creator moderation cases). */
let commenter: UserRow;

/** A notification for `to` (a moderation notice: no other rows needed). */
async function newNotification(to: UserRow) {
  const repo = new NotificationsRepository(t.ctx.db);
  const eventId = newId();
  await new EventsRepository(t.ctx.db).insert(eventId, 'moderation', null, {});
  await repo.deliverTo({ eventId, type: 'moderation', actorId: null, subject: { outcome: 'Checked' } }, [to.id]);
  const [row] = await repo.list(to.id, false, { limit: 1, offset: 0, after: null });
  return row!.id;
}

async function newComment(by: UserRow) {
  const video = await createVideo(t.ctx, by);
  const res = await call(t, 'POST', `/comments/video/${video.id}`, { as: by, body: { content: 'first' } });
  return res.body.data._id as string;
}
/** A comment by someone else on a fresh video of `videoOwner`; `held` with a watched word. */
async function commentOnVideoOf(videoOwner: UserRow, held = false) {
  const video = await createVideo(t.ctx, videoOwner);
  const res = await call(t, 'POST', `/comments/video/${video.id}`, { as: commenter, body: { content: held ? 'a WATCHED thing' : 'first' } });
  return res.body.data._id as string;
}
async function newPlaylist(by: UserRow, videoId?: string) {
  const res = await call(t, 'POST', '/playlists', { as: by, body: { name: 'Mix', ...(videoId ? { videoId } : {}) } });
  return res.body.data.playlist._id as string;
}

/** A remote actor stored as if fetched just now (no network: a fresh stored actor is not fetched again). */
let remotes = 0;
async function remoteActor() {
  const n = ++remotes;
  return new FederationRepository(t.ctx.db).upsertRemoteActor({
    id: newId(),
    uri: `https://remote${n}.example/actors/${n}`,
    host: `remote${n}.example`,
    type: 'Group',
    preferredUsername: `chan${n}`,
    name: `Channel ${n}`,
    inbox: `https://remote${n}.example/actors/${n}/inbox`,
    publicKeyId: `https://remote${n}.example/actors/${n}#main-key`,
    publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
  });
}
async function newLive(by: UserRow) {
  const res = await call(t, 'POST', '/lives', { as: by, body: { title: 'Show' } });
  return res.body.data.live._id as string;
}
async function remoteVideo() {
  const actor = await remoteActor();
  const id = newId();
  const uri = `https://${actor.host}/videos/${id}`;
  await new FederationRepository(t.ctx.db).upsertRemoteVideo({ id, uri, actorId: actor.id, name: 'Remote', pageUrl: uri, publishedAt: new Date(), updatedAt: new Date() });
  return { id, uri, actor };
}

const cases: Record<string, Case> = {
  // Moderation across servers (issue #35): the caller's own blocks and reports.
  'POST /api/v1/federation/channel-blocks': { build: async () => ({ url: '/federation/channel-blocks', body: { handle: (await remoteActor()).uri } }), other: null, owner: 201 },
  'DELETE /api/v1/federation/channel-blocks/:actorId': {
    build: async (o) => {
      const actor = await remoteActor();
      expect((await call(t, 'POST', '/federation/channel-blocks', { as: o, body: { handle: actor.uri } })).status).toBe(201);
      return { url: `/federation/channel-blocks/${actor.id}` };
    },
    other: null,
    owner: 200,
  },
  'POST /api/v1/federation/reports': {
    build: async () => ({ url: '/federation/reports', body: { targetKind: 'video', targetId: (await remoteVideo()).id, reason: 'spam', text: 'Buy now' } }),
    other: null,
    owner: 201,
  },
  // Lives (issue #36): only their creator changes them; staff have no right here (lives.test.ts).
  'POST /api/v1/lives': { build: async () => ({ url: '/lives', body: { title: 'On air' } }), other: null, owner: 201 },
  'PATCH /api/v1/lives/:liveId': { build: async (o) => ({ url: `/lives/${await newLive(o)}`, body: { title: 'Renamed' } }), other: 403, owner: 200 },
  'DELETE /api/v1/lives/:liveId': { build: async (o) => ({ url: `/lives/${await newLive(o)}` }), other: 403, owner: 200 },
  'POST /api/v1/lives/:liveId/key': { build: async (o) => ({ url: `/lives/${await newLive(o)}/key` }), other: 403, owner: 200 },
  'PUT /api/v1/lives/:liveId/thumbnail': { build: async (o) => ({ url: `/lives/${await newLive(o)}/thumbnail`, body: form({ image: png() }) }), other: 403, owner: 200 },
  'DELETE /api/v1/lives/:liveId/thumbnail': { build: async (o) => ({ url: `/lives/${await newLive(o)}/thumbnail` }), other: 403, owner: 200 },
  // Federation (issue #35): each acts on the caller's own follows, ratings and comments.
  'POST /api/v1/federation/follows': { build: async () => ({ url: '/federation/follows', body: { handle: (await remoteActor()).uri } }), other: null, owner: 200 },
  'DELETE /api/v1/federation/follows/:actorId': {
    build: async (o) => {
      const actor = await remoteActor();
      await new FederationRepository(t.ctx.db).follow(o.id, actor.id, `https://glimpse.test/ap/activities/follow/${newId()}`);
      return { url: `/federation/follows/${actor.id}` };
    },
    other: null,
    owner: 200,
  },
  'POST /api/v1/federation/videos/:videoId/rate': { build: async () => ({ url: `/federation/videos/${(await remoteVideo()).id}/rate`, body: { rating: 'like' } }), other: null, owner: 200 },
  'POST /api/v1/federation/videos/:videoId/comments': { build: async () => ({ url: `/federation/videos/${(await remoteVideo()).id}/comments`, body: { content: 'Hi' } }), other: null, owner: 201 },
  'POST /api/v1/federation/comments/:commentId/replies': {
    build: async () => {
      const video = await remoteVideo();
      const id = newId();
      await new FederationRepository(t.ctx.db).insertComment({ id, uri: `${video.uri}/comments/1`, remoteVideoId: video.id, authorActorId: video.actor.id, inReplyTo: video.uri, content: '<p>Hi</p>' });
      return { url: `/federation/comments/${id}/replies`, body: { content: 'Hello back' } };
    },
    other: null,
    owner: 201,
  },
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
  // Creator moderation: the owner of the video (not the comment's author) acts; staff have no right here.
  'POST /api/v1/comments/:commentId/approve': { build: async (o) => ({ url: `/comments/${await commentOnVideoOf(o, true)}/approve` }), other: 403, owner: 200 },
  'POST /api/v1/comments/:commentId/pin': { build: async (o) => ({ url: `/comments/${await commentOnVideoOf(o)}/pin` }), other: 403, owner: 200 },
  'DELETE /api/v1/comments/:commentId/pin': { build: async (o) => ({ url: `/comments/${await commentOnVideoOf(o)}/pin` }), other: 403, owner: 200 },
  'POST /api/v1/channel-blocks': { build: async () => ({ url: '/channel-blocks', body: { userId: (await createUser(t.ctx)).id } }), other: null, owner: 201 },
  // Another user's list does not hold this block: they cannot lift the owner's.
  'DELETE /api/v1/channel-blocks/:userId': {
    build: async (o) => {
      const blocked = await createUser(t.ctx);
      await call(t, 'POST', '/channel-blocks', { as: o, body: { userId: blocked.id } });
      return { url: `/channel-blocks/${blocked.id}` };
    },
    other: 404,
    owner: 200,
  },
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
  // Acts on the caller's account only; a fresh one per run (it is gone afterwards).
  'DELETE /api/v1/users/me': {
    build: async () => ({ url: '/users/me', body: { password: TEST_PASSWORD }, owner: await createUser(t.ctx) }),
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
  // Upload sessions are the caller's own (keyed by account and uniqueId): anyone else, staff too, finds none.
  'DELETE /api/v1/videos/uploads/:uniqueId': {
    build: async (o) => {
      const uniqueId = `authz${++uploads}`;
      const chunk = await call(t, 'POST', `/videos?uniqueId=${uniqueId}&chunkNumber=0&totalChunks=2`, { as: o, body: form({ video: new Blob([Buffer.alloc(1024, 1)]) }) });
      expect(chunk.status).toBe(200);
      return { url: `/videos/uploads/${uniqueId}` };
    },
    other: 404,
    owner: 200,
  },
  // Visitors count views too; an unpublished video is not there for anyone but its owner.
  'POST /api/v1/videos/:id/views': {
    build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o, { privacy: 'private' })).id}/views`, body: { position: 3 } }),
    anonymous: 404,
    other: 404,
    owner: 200,
  },
  // Open to visitors; a private video is reported on by its owner's player only (staff's too get a 404: no viewPrivate here).
  'POST /api/v1/analytics/heartbeat': {
    build: async (o) => ({
      url: '/analytics/heartbeat',
      body: { videoId: (await createVideo(t.ctx, o, { privacy: 'private' })).id, sessionId: newId(), source: 'home', positions: [1, 2] },
    }),
    anonymous: 404,
    other: 404,
    owner: 202,
  },
  'PATCH /api/v1/videos/:id': { build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o)).id}`, body: { title: 'New title' } }), other: 403, owner: 200 },
  'PATCH /api/v1/videos/:id/publish': {
    build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o, { privacy: 'private' })).id}/publish`, body: { isPublished: true } }),
    other: 403,
    owner: 200,
  },
  'DELETE /api/v1/videos/:id': { build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o)).id}` }), other: 403, owner: 200 },
  // Captions: the video's owner only (staff have no caption rights).
  'POST /api/v1/videos/:id/captions/:lang': {
    build: async (o) => ({ url: `/videos/${(await createVideo(t.ctx, o)).id}/captions/en`, body: { label: 'English', text: CAPTION } }),
    other: 403,
    owner: 200,
  },
  'DELETE /api/v1/videos/:id/captions/:lang': {
    build: async (o) => {
      const video = await createVideo(t.ctx, o);
      await new CaptionsService(t.ctx).save(video.id, o.id, 'en', 'English', Buffer.from(CAPTION));
      return { url: `/videos/${video.id}/captions/en` };
    },
    other: 403,
    owner: 200,
  },
  // Notifications: each user's own; someone else's is not found.
  'PATCH /api/v1/notifications/:id/read': { build: async (o) => ({ url: `/notifications/${await newNotification(o)}/read` }), other: 404, owner: 200 },
  'POST /api/v1/notifications/read-all': { build: async () => ({ url: '/notifications/read-all' }), other: null, owner: 200 },
  'PATCH /api/v1/notifications/settings': { build: async () => ({ url: '/notifications/settings', body: { comment: 'digest' } }), other: null, owner: 200 },
  // No login: the signed token names whose mails stop, so it only ever acts for the token's owner.
  'POST /api/v1/notifications/unsubscribe': {
    build: async (o) => ({ url: `/notifications/unsubscribe?token=${new UnsubscribeTokens(t.config.jwtSecret).sign(o.id, 'comment')}` }),
    anonymous: 200,
    other: null,
    owner: 200,
  },
  // Anyone logged in reports someone else's content (a fresh target each time: one open report per target).
  'POST /api/v1/reports': {
    build: async () => ({ url: '/reports', body: { targetKind: 'video', targetId: (await createVideo(t.ctx, await createUser(t.ctx))).id, reason: 'spam' } }),
    other: null,
    owner: 201,
  },
  // Only the owner sees a taken-down item, so anyone else (staff included) is told it does not exist.
  'POST /api/v1/takedowns/:kind/:id/appeal': {
    build: async (o) => ({ url: `/takedowns/video/${(await takenDownVideo(o)).id}/appeal`, body: { text: 'Please look again' } }),
    other: 404,
    owner: 200,
  },
  // The private feed's token is the caller's own: creating replaces, revoking needs one to exist.
  'POST /api/v1/feeds/token': { build: async () => ({ url: '/feeds/token' }), other: null, owner: 201 },
  'DELETE /api/v1/feeds/token': {
    build: async (o) => {
      expect((await call(t, 'POST', '/feeds/token', { as: o })).status).toBe(201);
      return { url: '/feeds/token' };
    },
    other: null,
    owner: 200,
  },
};

let words = 0;
const heldTweet = async () => (await createTweet(t.ctx, commenter, { reviewState: 'held' })).id;

let fedHosts = 0;
const staffCases: Record<string, StaffCase> = {
  // Federation policy (issue #35): admins only.
  'GET /api/v1/admin/federation/blocks': { build: async () => ({ url: '/admin/federation/blocks' }), moderator: 403, admin: 200 },
  'POST /api/v1/admin/federation/blocks': { build: async () => ({ url: '/admin/federation/blocks', body: { target: `blocked${++fedHosts}.example` } }), moderator: 403, admin: 201 },
  'DELETE /api/v1/admin/federation/blocks': {
    build: async () => {
      const host = `unblock${++fedHosts}.example`;
      await new FederationRepository(t.ctx.db).addBlock(host, 'host', owner.id);
      return { url: `/admin/federation/blocks?target=${host}` };
    },
    moderator: 403,
    admin: 200,
  },
  'GET /api/v1/admin/federation/policy': { build: async () => ({ url: '/admin/federation/policy' }), moderator: 403, admin: 200 },
  'PUT /api/v1/admin/federation/policy': { build: async () => ({ url: '/admin/federation/policy', body: { mode: 'open' } }), moderator: 403, admin: 200 },
  'POST /api/v1/admin/federation/allowed-hosts': { build: async () => ({ url: '/admin/federation/allowed-hosts', body: { host: `friend${++fedHosts}.example` } }), moderator: 403, admin: 201 },
  'DELETE /api/v1/admin/federation/allowed-hosts': {
    build: async () => {
      const host = `friend${++fedHosts}.example`;
      await new FederationRepository(t.ctx.db).allowHost(host, owner.id);
      return { url: `/admin/federation/allowed-hosts?host=${host}` };
    },
    moderator: 403,
    admin: 200,
  },
  'GET /api/v1/admin/watched-words': { build: async () => ({ url: '/admin/watched-words' }), moderator: 403, admin: 200 },
  'POST /api/v1/admin/watched-words': { build: async () => ({ url: '/admin/watched-words', body: { word: `word${++words}` } }), moderator: 403, admin: 201 },
  'DELETE /api/v1/admin/watched-words/:id': {
    build: async () => ({ url: `/admin/watched-words/${(await new WatchedWordsService(t.ctx).add(`gone${++words}`))._id}` }),
    moderator: 403,
    admin: 200,
  },
  'GET /api/v1/moderation/held-tweets': { build: async () => ({ url: '/moderation/held-tweets' }), moderator: 200, admin: 200 },
  'POST /api/v1/moderation/held-tweets/:tweetId/approve': { build: async () => ({ url: `/moderation/held-tweets/${await heldTweet()}/approve` }), moderator: 200, admin: 200 },
  'DELETE /api/v1/moderation/held-tweets/:tweetId': { build: async () => ({ url: `/moderation/held-tweets/${await heldTweet()}` }), moderator: 200, admin: 200 },
  'GET /api/v1/admin/settings': { build: async () => ({ url: '/admin/settings' }), moderator: 403, admin: 200 },
  'PATCH /api/v1/admin/settings': { build: async () => ({ url: '/admin/settings', body: { description: 'A place for videos' } }), moderator: 403, admin: 200 },
  'GET /api/v1/admin/overview': { build: async () => ({ url: '/admin/overview' }), moderator: 200, admin: 200 },
  'GET /api/v1/admin/users': { build: async () => ({ url: '/admin/users' }), moderator: 200, admin: 200 },
  'POST /api/v1/admin/transcodes/:videoId/retry': {
    build: async () => ({ url: `/admin/transcodes/${(await createVideo(t.ctx, owner, { status: 'failed', sourceKey: 'originals/x' })).id}/retry` }),
    moderator: 200,
    admin: 200,
  },
  'PATCH /api/v1/admin/users/:userId/role': {
    build: async () => ({ url: `/admin/users/${(await createUser(t.ctx)).id}/role`, body: { role: 'moderator' } }),
    moderator: 403,
    admin: 200,
  },
  'GET /api/v1/moderation/registrations': { build: async () => ({ url: '/moderation/registrations' }), moderator: 200, admin: 200 },
  'POST /api/v1/moderation/registrations/:userId/approve': {
    build: async () => ({ url: `/moderation/registrations/${(await createUser(t.ctx, { state: 'pending_approval' })).id}/approve` }),
    moderator: 200,
    admin: 200,
  },
  'POST /api/v1/moderation/registrations/:userId/reject': {
    build: async () => ({ url: `/moderation/registrations/${(await createUser(t.ctx, { state: 'pending_approval' })).id}/reject`, body: { reason: 'Not for this club' } }),
    moderator: 200,
    admin: 200,
  },
  'DELETE /api/v1/admin/users/:userId': { build: async () => ({ url: `/admin/users/${(await createUser(t.ctx)).id}` }), moderator: 403, admin: 200 },
  'GET /api/v1/moderation/reports': { build: async () => ({ url: '/moderation/reports?state=open' }), moderator: 200, admin: 200 },
  'GET /api/v1/moderation/log': { build: async () => ({ url: '/moderation/log' }), moderator: 200, admin: 200 },
  'POST /api/v1/moderation/targets/:kind/:id/dismiss': {
    build: async () => ({ url: `/moderation/targets/video/${await reportedVideo()}/dismiss`, body: { reason: 'Fine' } }),
    moderator: 200,
    admin: 200,
  },
  'POST /api/v1/moderation/targets/:kind/:id/take-down': {
    build: async () => ({ url: `/moderation/targets/video/${await reportedVideo()}/take-down`, body: { reason: 'Spam' } }),
    moderator: 200,
    admin: 200,
  },
  'POST /api/v1/moderation/targets/:kind/:id/restore': {
    build: async () => ({ url: `/moderation/targets/video/${(await takenDownVideo(await createUser(t.ctx))).id}/restore` }),
    moderator: 200,
    admin: 200,
  },
  'POST /api/v1/moderation/targets/:kind/:id/delete': {
    build: async () => ({ url: `/moderation/targets/tweet/${(await createTweet(t.ctx, await createUser(t.ctx))).id}/delete`, body: { reason: 'Scam' } }),
    moderator: 200,
    admin: 200,
  },
  // Suspending a moderator is for admins only.
  'POST /api/v1/moderation/users/:userId/suspend': {
    build: async () => ({ url: `/moderation/users/${(await createUser(t.ctx, { role: 'moderator' })).id}/suspend`, body: { reason: 'Abuse' } }),
    moderator: 403,
    admin: 200,
  },
  'POST /api/v1/moderation/users/:userId/unsuspend': {
    build: async () => ({ url: `/moderation/users/${(await createUser(t.ctx, { state: 'suspended', stateReason: 'Spam' })).id}/unsuspend` }),
    moderator: 200,
    admin: 200,
  },
};

async function takenDownVideo(by: UserRow) {
  return createVideo(t.ctx, by, { takenDownAt: new Date(), takedownReason: 'Spam' });
}
/** A video with one open report. */
async function reportedVideo() {
  const video = await createVideo(t.ctx, await createUser(t.ctx));
  const res = await call(t, 'POST', '/reports', { as: await createUser(t.ctx), body: { targetKind: 'video', targetId: video.id, reason: 'spam' } });
  expect(res.status).toBe(201);
  return video.id;
}

/** Writes open to visitors by nature, each with the reason it needs no login. */
const publicWrites: Record<string, string> = {
  'POST /api/v1/auths/register': 'creates the account: there is no caller yet',
  'POST /api/v1/auths/login': 'exchanges a password for tokens: the caller is proving who they are',
  'POST /api/v1/auths/logout': 'ends the session named by the refresh token it carries; a stale or missing one is a no-op',
  'POST /api/v1/auths/forgot-password-mail': 'for people who cannot log in; answers the same for every address',
  'POST /api/v1/auths/refresh-token': 'authenticated by the refresh token itself, not the (expired) access token',
  'POST /api/v1/auths/password-reset': 'authenticated by the single-use token mailed to the account',
};

let moderator: UserRow;
let admin: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.ctx);
  other = await createUser(t.ctx);
  moderator = await createUser(t.ctx, { role: 'moderator' });
  admin = await createUser(t.ctx, { role: 'admin' });
  commenter = await createUser(t.ctx);
  await new WatchedWordsService(t.ctx).add('watched');
  await t.ctx.settings.update({ livesEnabled: true });
});
afterAll(() => t.close());

it('has a case (or a stated reason to be public) for every write and staff route in the route table, and none for a route that is gone', () => {
  const keys = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
  const staff = t.app.routeTable.filter((r) => STAFF_ROUTE.test(r.url)).map((r) => `${r.method} ${r.url}`);
  const writes = t.app.routeTable.filter((r) => r.method !== 'GET' && !STAFF_ROUTE.test(r.url)).map((r) => `${r.method} ${r.url}`);
  expect(writes.filter((w) => !(w in cases) && !(w in publicWrites))).toEqual([]);
  expect(staff.filter((w) => !(w in staffCases))).toEqual([]);
  expect(Object.keys(cases).filter((k) => !writes.includes(k))).toEqual([]);
  expect([...Object.keys(staffCases), ...Object.keys(publicWrites)].filter((k) => !keys.includes(k))).toEqual([]);
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

  it.each(['moderator', 'admin'] as const)('is as the case says for a %s, and a refusal changes nothing', async (role) => {
    const req = await c.build(owner);
    const expected = c[role] ?? c.other!;
    const res = await call(t, method, req.url, { as: role === 'admin' ? admin : moderator, body: req.body });
    expect(res.status, JSON.stringify(res.body)).toBe(expected);
    if (expected < 400) return;
    const again = await call(t, method, req.url, { as: req.owner ?? owner, body: req.body });
    expect(again.status, JSON.stringify(again.body)).toBe(c.owner);
  });
});

describe.each(Object.entries(staffCases))('%s', (key, c) => {
  const method = key.split(' ')[0] as Method | 'GET';

  it('is 401 for a visitor and 403 for a user, as the case says for a moderator, and works for an admin', async () => {
    const req = await c.build();
    expect((await call(t, method, req.url, { body: req.body })).status).toBe(401);
    const user = await call(t, method, req.url, { as: other, body: req.body });
    expect(user.status, JSON.stringify(user.body)).toBe(403);
    const mod = await call(t, method, req.url, { as: moderator, body: req.body });
    expect(mod.status, JSON.stringify(mod.body)).toBe(c.moderator);
    // The refusals consumed nothing: the same request still works for an admin (a fresh one when the moderator's worked).
    const next = c.moderator < 400 ? await c.build() : req;
    const res = await call(t, method, next.url, { as: admin, body: next.body });
    expect(res.status, JSON.stringify(res.body)).toBe(c.admin);
  });
});
