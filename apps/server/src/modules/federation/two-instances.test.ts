import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { federationKeys, remoteActors, remoteShares, remoteVideos, users, videos } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { createWorker } from '../../worker.ts';
import { counterMismatches } from '../../../test/invariants.ts';
import { bearer, createTestApp, createUser, createVideo, memoryLog, type TestContext } from '../../../test/harness.ts';
import type { UserRow } from '../users/users.repository.ts';
import { WatchedWordsService } from '../watched-words/watched-words.service.ts';
import { AccountDeletionService } from '../accounts/account-deletion.service.ts';
import { DELIVER_QUEUE, keyFor } from './delivery.ts';
import { FederationRepository } from './federation.repository.ts';
import { FederationUrls } from './documents.ts';
import { newKeyPair, signRequest } from './http-signature.ts';

/**
 * Two Glimpse servers on loopback, each with its own database, talking over real HTTP (ARCHITECTURE
 * §14, issue #35): B's user follows A's channel by @name@host, A's public video reaches B's feed,
 * unlisting it on A removes it from B, and B's inbox refuses forged, replayed and foreign activities.
 */

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function server(): Promise<TestContext & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: base, FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  return { ...t, base };
}

let a: Awaited<ReturnType<typeof server>>;
let b: Awaited<ReturnType<typeof server>>;
let alice: UserRow;
let bob: UserRow;
let aliceActorId: string;
/** Runs every due job of a server (event fan-out, then the deliveries it queued). */
const drain = (s: TestContext) => createWorker(s.ctx, memoryLog()).drain();

beforeAll(async () => {
  [a, b] = await Promise.all([server(), server()]);
  alice = await createUser(a.ctx, { userName: 'alice', fullName: 'Alice A' });
  bob = await createUser(b.ctx, { userName: 'bob', fullName: 'Bob B' });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
});

const feedOfBob = async () => {
  const res = await b.app.inject({ method: 'GET', url: '/api/v1/federation/feed', headers: await bearer(b.ctx, bob) });
  expect(res.statusCode).toBe(200);
  return res.json().data.videos as { _id: string; title: string; fromHost: string; hlsUrl: string | null; originalUrl: string }[];
};

describe('two instances', () => {
  it('B follows A by @name@host; A counts the subscriber and accepts', async () => {
    const hostA = new URL(a.base).host;
    const res = await b.app.inject({
      method: 'POST',
      url: '/api/v1/federation/follows',
      headers: await bearer(b.ctx, bob),
      payload: { handle: `@alice@${hostA}` },
    });
    expect(res.statusCode).toBe(200);
    const channel = res.json().data;
    expect(channel).toMatchObject({ handle: `@alice@${hostA}`, name: 'Alice A', host: hostA, following: 'pending' });
    aliceActorId = channel._id;

    await drain(b); // Follow -> A's inbox
    const [row] = await a.ctx.db.select({ n: users.subscriberCount }).from(users).where(eq(users.id, alice.id));
    expect(row!.n).toBe(1);
    expect(await counterMismatches(a.ctx.db)).toEqual([]);
    await drain(a); // Accept -> B's inbox
    const page = await b.app.inject({ method: 'GET', url: `/api/v1/federation/channels/${aliceActorId}`, headers: await bearer(b.ctx, bob) });
    expect(page.json().data.channel.following).toBe('accepted');
  });

  it("A's new public video appears in B's feed, playable from A; unlisting it on A removes it", async () => {
    const id = newId();
    const hlsKey = `videos/${id}/hls/master.m3u8`;
    await a.ctx.storage.putBuffer(hlsKey, Buffer.from('#EXTM3U\n'), 'application/vnd.apple.mpegurl');
    const video = await createVideo(a.ctx, alice, { id, privacy: 'private', title: 'Hello fediverse', hlsKey });
    const aliceAuth = await bearer(a.ctx, alice);
    const pub = await a.app.inject({ method: 'PATCH', url: `/api/v1/videos/${video.id}/publish`, headers: aliceAuth, payload: { isPublished: true } });
    expect(pub.statusCode).toBe(200);
    await drain(a); // videoPublished/videoChanged -> Create -> B's shared inbox

    const feed = await feedOfBob();
    expect(feed).toHaveLength(1);
    expect(feed[0]).toMatchObject({ title: 'Hello fediverse', fromHost: new URL(a.base).host, originalUrl: `${a.base}/video/${video.id}` });
    // It plays from its origin: the HLS address B stored answers A's playlist, and B's pages let the player fetch it.
    const playlist = await fetch(feed[0]!.hlsUrl!);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toContain('#EXTM3U');
    const one = await b.app.inject({ method: 'GET', url: `/api/v1/federation/videos/${feed[0]!._id}` });
    expect(one.json().data.video).toMatchObject({ title: 'Hello fediverse', hlsUrl: feed[0]!.hlsUrl });
    const csp = String((await b.app.inject({ method: 'GET', url: `/video/${video.id}` })).headers['content-security-policy']);
    for (const directive of ['media-src', 'connect-src', 'img-src']) expect(csp).toMatch(new RegExp(`${directive} [^;]*${a.base.replace(/[.:/]/g, '\\$&')}`));

    // A comment on B arrives on A under the video; A's reply goes back to B, threaded.
    const remoteVideoId = feed[0]!._id;
    const sent = await b.app.inject({
      method: 'POST',
      url: `/api/v1/federation/videos/${remoteVideoId}/comments`,
      headers: await bearer(b.ctx, bob),
      payload: { content: 'Great <video> from B' },
    });
    expect(sent.statusCode).toBe(201);
    await drain(b);
    const threadOnA = async (as?: UserRow) =>
      (await a.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${video.id}`, headers: as ? await bearer(a.ctx, as) : {} })).json().data
        .comments as { _id: string; content: string; author: { handle: string }; inReplyTo: string; held: boolean }[];
    const [arrived] = await threadOnA();
    expect(arrived).toMatchObject({ content: '<p>Great &lt;video&gt; from B</p>', author: { handle: `@bob@${new URL(b.base).host}` }, inReplyTo: `${a.base}/ap/videos/${video.id}` });
    const replied = await a.app.inject({
      method: 'POST',
      url: `/api/v1/federation/comments/${arrived!._id}/replies`,
      headers: aliceAuth,
      payload: { content: 'Thanks from A' },
    });
    expect(replied.statusCode).toBe(201);
    await drain(a);
    const threadOnB = (await b.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${remoteVideoId}` })).json().data.comments;
    expect(threadOnB.map((c: { content: string; inReplyTo: string }) => [c.content, c.inReplyTo])).toEqual([
      ['<p>Great &lt;video&gt; from B</p>', `${a.base}/ap/videos/${video.id}`],
      ['<p>Thanks from A</p>', sent.json().data.uri],
    ]);
    // The Note B serves for its comment passes PeerTube's checks (video-comments.ts:
    // sanitizeAndCheckVideoCommentObject): id, url, content, inReplyTo, published, Public in to.
    const note = (await b.app.inject({ method: 'GET', url: new URL(sent.json().data.uri).pathname, headers: { accept: 'application/activity+json' } })).json();
    expect(note).toMatchObject({ type: 'Note', id: sent.json().data.uri, url: sent.json().data.uri, inReplyTo: `${a.base}/ap/videos/${video.id}` });
    expect(note.to).toContain('https://www.w3.org/ns/activitystreams#Public');
    expect(Number.isNaN(Date.parse(note.published))).toBe(false);
    // A's watched words hold a remote comment as they hold local ones: only the video's owner sees it.
    await new WatchedWordsService(a.ctx).add('spamword');
    await b.app.inject({ method: 'POST', url: `/api/v1/federation/videos/${remoteVideoId}/comments`, headers: await bearer(b.ctx, bob), payload: { content: 'buy spamword now' } });
    await drain(b);
    expect((await threadOnA()).map((c) => c.held)).toEqual([false, false]);
    expect((await threadOnA(alice)).map((c) => c.held)).toEqual([false, false, true]);

    // A's local comments (the comments module) reach B as Notes under the video, threaded; a reply
    // from B to one is kept on A; a take-down and a deletion on A remove them from B.
    const hostA = new URL(a.base).host;
    const carla = await createUser(a.ctx, { userName: 'carla' });
    const local = await a.app.inject({ method: 'POST', url: `/api/v1/comments/video/${video.id}`, headers: await bearer(a.ctx, carla), payload: { content: 'Local <hello> from A' } });
    expect(local.statusCode).toBe(201);
    const localId = local.json().data._id as string;
    const localReply = await a.app.inject({ method: 'POST', url: `/api/v1/comments/video/${video.id}/${localId}`, headers: aliceAuth, payload: { content: 'Local reply' } });
    expect(localReply.statusCode).toBe(201);
    await drain(a);
    type Shown = { _id: string; uri: string; content: string; inReplyTo: string; author: { handle: string } };
    const localOnB = async () =>
      ((await b.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${remoteVideoId}` })).json().data.comments as Shown[]).filter((c) => c.uri.includes('/ap/video-comments/'));
    const noteOf = (id: string) => `${a.base}/ap/video-comments/${id}`;
    expect(await localOnB()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: noteOf(localId), content: '<p>Local &lt;hello&gt; from A</p>', author: expect.objectContaining({ handle: `@carla@${hostA}` }), inReplyTo: `${a.base}/ap/videos/${video.id}` }),
        expect.objectContaining({ uri: noteOf(localReply.json().data._id), content: '<p>Local reply</p>', author: expect.objectContaining({ handle: `@alice@${hostA}` }), inReplyTo: noteOf(localId) }),
      ]),
    );
    expect(await localOnB()).toHaveLength(2);
    // A serves the Note at its id, shaped as PeerTube's comment checks want (sanitizeAndCheckVideoCommentObject).
    const served = (await a.app.inject({ method: 'GET', url: `/ap/video-comments/${localId}`, headers: { accept: 'application/activity+json' } })).json();
    expect(served).toMatchObject({ type: 'Note', id: noteOf(localId), url: noteOf(localId), attributedTo: `${a.base}/ap/accounts/${carla.id}`, inReplyTo: `${a.base}/ap/videos/${video.id}` });
    expect(served.to).toContain('https://www.w3.org/ns/activitystreams#Public');
    const answer = await b.app.inject({
      method: 'POST',
      url: `/api/v1/federation/comments/${(await localOnB()).find((c) => c.uri === noteOf(localId))!._id}/replies`,
      headers: await bearer(b.ctx, bob),
      payload: { content: 'Bob answers Carla' },
    });
    expect(answer.statusCode).toBe(201);
    await drain(b);
    expect((await threadOnA()).find((c) => c.content === '<p>Bob answers Carla</p>')).toMatchObject({ inReplyTo: noteOf(localId) });
    const modA = await createUser(a.ctx, { role: 'moderator' });
    const down = await a.app.inject({ method: 'POST', url: `/api/v1/moderation/targets/comment/${localReply.json().data._id}/take-down`, headers: await bearer(a.ctx, modA), payload: { reason: 'Rude' } });
    expect(down.statusCode).toBe(200);
    await drain(a);
    expect((await localOnB()).map((c) => c.uri)).toEqual([noteOf(localId)]);
    const removed = await a.app.inject({ method: 'DELETE', url: `/api/v1/comments/${localId}`, headers: await bearer(a.ctx, carla) });
    expect(removed.statusCode).toBe(200);
    await drain(a);
    expect(await localOnB()).toEqual([]);

    // B's user likes it: the like counts on A; a dislike instead replaces it (Undo, then Dislike).
    const counts = async () => (await a.ctx.db.select({ likes: videos.likes, dislikes: videos.dislikes }).from(videos).where(eq(videos.id, video.id)))[0];
    const rate = async (rating: string) =>
      b.app.inject({ method: 'POST', url: `/api/v1/federation/videos/${feed[0]!._id}/rate`, headers: await bearer(b.ctx, bob), payload: { rating } });
    expect((await rate('like')).statusCode).toBe(200);
    await drain(b);
    expect(await counts()).toEqual({ likes: 1, dislikes: 0 });
    expect((await rate('dislike')).statusCode).toBe(200);
    await drain(b);
    expect(await counts()).toEqual({ likes: 0, dislikes: 1 });
    expect(await counterMismatches(a.ctx.db)).toEqual([]);

    const edit = await a.app.inject({ method: 'PATCH', url: `/api/v1/videos/${video.id}`, headers: aliceAuth, payload: { privacy: 'unlisted' } });
    expect(edit.statusCode).toBe(200);
    await drain(a); // videoChanged -> Delete
    expect(await feedOfBob()).toHaveLength(0);

    // Public again: sent again; then a moderator of A takes it down: gone from B again.
    const republish = await a.app.inject({ method: 'PATCH', url: `/api/v1/videos/${video.id}`, headers: aliceAuth, payload: { privacy: 'public' } });
    expect(republish.statusCode).toBe(200);
    await drain(a);
    expect(await feedOfBob()).toHaveLength(1);
    const moderator = await createUser(a.ctx, { role: 'moderator' });
    const takedown = await a.app.inject({
      method: 'POST',
      url: `/api/v1/moderation/targets/video/${video.id}/take-down`,
      headers: await bearer(a.ctx, moderator),
      payload: { reason: 'Spam' },
    });
    expect(takedown.statusCode).toBe(200);
    await drain(a);
    expect(await feedOfBob()).toHaveLength(0);
  });

  it("A's channel block keeps B's account's comments out; B's report reaches A's moderation queue as a Flag", async () => {
    const hostB = new URL(b.base).host;
    const aliceAuth = await bearer(a.ctx, alice);
    const bobAuth = await bearer(b.ctx, bob);
    const video = await createVideo(a.ctx, alice, { privacy: 'private', title: 'Moderated' });
    await a.app.inject({ method: 'PATCH', url: `/api/v1/videos/${video.id}/publish`, headers: aliceAuth, payload: { isPublished: true } });
    await drain(a);
    const remote = (await feedOfBob()).find((v) => v.title === 'Moderated')!;

    // Alice blocks Bob (known on A from his earlier comment): his next comment is not kept.
    const block = await a.app.inject({ method: 'POST', url: '/api/v1/federation/channel-blocks', headers: aliceAuth, payload: { handle: `@bob@${hostB}` } });
    expect(block.statusCode).toBe(201);
    expect(block.json().data).toMatchObject({ handle: `@bob@${hostB}` });
    await b.app.inject({ method: 'POST', url: `/api/v1/federation/videos/${remote._id}/comments`, headers: bobAuth, payload: { content: 'Still here' } });
    await drain(b);
    const thread = await a.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${video.id}`, headers: aliceAuth });
    expect(thread.json().data.comments).toEqual([]);
    const unblock = (actorId: string) => a.app.inject({ method: 'DELETE', url: `/api/v1/federation/channel-blocks/${actorId}`, headers: aliceAuth });
    expect((await unblock(block.json().data.actorId)).statusCode).toBe(200);
    expect((await unblock(block.json().data.actorId)).statusCode).toBe(404);

    // Bob reports the video on B: a Flag from B's instance actor lands in A's queue, once.
    const report = () =>
      b.app.inject({ method: 'POST', url: '/api/v1/federation/reports', headers: bobAuth, payload: { targetKind: 'video', targetId: remote._id, reason: 'spam', text: 'Buy now' } });
    expect((await report()).statusCode).toBe(201);
    expect((await report()).statusCode).toBe(409);
    await drain(b);
    const moderator = await createUser(a.ctx, { role: 'moderator' });
    const queue = await a.app.inject({ method: 'GET', url: '/api/v1/moderation/reports?kind=video', headers: await bearer(a.ctx, moderator) });
    const item = queue.json().data.data.find((i: { targetId: string }) => i.targetId === video.id);
    expect(item).toMatchObject({ reportCount: 1 });
    expect(item.reports[0]).toMatchObject({ reason: 'spam', text: 'Spam: Buy now', reporter: { userName: `${hostB.replace(/[^A-Za-z0-9\-_.]/g, '_')}@${hostB}` } });

    // A comment across servers: Bob (unblocked) comments, Alice replies; Bob reports Alice's reply on
    // B, and A's moderators get it as a report of the comment, Alice its owner.
    await b.app.inject({ method: 'POST', url: `/api/v1/federation/videos/${remote._id}/comments`, headers: bobAuth, payload: { content: 'Back again' } });
    await drain(b);
    const [bobsComment] = (await a.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${video.id}` })).json().data.comments;
    const reply = await a.app.inject({ method: 'POST', url: `/api/v1/federation/comments/${bobsComment._id}/replies`, headers: aliceAuth, payload: { content: 'Go <away> & stay' } });
    expect(reply.statusCode).toBe(201);
    await drain(a);
    const onB = (await b.app.inject({ method: 'GET', url: `/api/v1/federation/comments?video=${remote._id}` })).json().data.comments;
    const alicesReply = onB.find((c: { uri: string }) => c.uri === reply.json().data.uri);
    const flagComment = await b.app.inject({
      method: 'POST',
      url: '/api/v1/federation/reports',
      headers: bobAuth,
      payload: { targetKind: 'comment', targetId: alicesReply._id, reason: 'harassment' },
    });
    expect(flagComment.statusCode).toBe(201);
    await drain(b);
    const modAuth = await bearer(a.ctx, moderator);
    const comments = await a.app.inject({ method: 'GET', url: '/api/v1/moderation/reports?kind=federatedComment', headers: modAuth });
    expect(comments.statusCode).toBe(200);
    const [reported] = comments.json().data.data;
    expect(reported).toMatchObject({
      targetKind: 'federatedComment',
      targetId: reply.json().data._id,
      target: { label: 'Go <away> & stay', videoId: video.id, remoteVideoId: null, userName: 'alice' },
      text: 'Go <away> & stay',
      owner: { userName: 'alice' },
      itemState: 'visible',
      reportCount: 1,
    });
    expect(reported.reports[0]).toMatchObject({ reason: 'hateful', text: 'Harassment' });
    // Moderators dismiss it like any report; it cannot be taken down here (400: not a kind taken down).
    const act = (action: string) =>
      a.app.inject({ method: 'POST', url: `/api/v1/moderation/targets/federatedComment/${reported.targetId}/${action}`, headers: modAuth, payload: { reason: 'Fine' } });
    expect((await act('take-down')).statusCode).toBe(400);
    expect((await act('dismiss')).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'GET', url: '/api/v1/moderation/reports?kind=federatedComment', headers: modAuth })).json().data.data).toEqual([]);
  });

  it("an account deleted on B sends Delete of its actors, signed by its kept key: A forgets its follow; B then drops the key", async () => {
    const subscribers = async () => (await a.ctx.db.select({ n: users.subscriberCount }).from(users).where(eq(users.id, alice.id)))[0]!.n;
    const before = await subscribers();
    const erin = await createUser(b.ctx, { userName: 'erin' });
    await b.app.inject({ method: 'POST', url: '/api/v1/federation/follows', headers: await bearer(b.ctx, erin), payload: { handle: `@alice@${new URL(a.base).host}` } });
    await drain(b);
    await drain(a);
    expect(await subscribers()).toBe(before + 1);
    const admin = await createUser(b.ctx, { role: 'admin' });
    await new AccountDeletionService(b.ctx).deleteByAdmin(admin.id, erin.id);
    await drain(b);
    expect(await subscribers()).toBe(before);
    expect(await a.ctx.db.select().from(remoteActors).where(eq(remoteActors.uri, `${b.base}/ap/accounts/${erin.id}`))).toEqual([]);
    expect(await counterMismatches(a.ctx.db)).toEqual([]);
    await new FederationRepository(b.ctx.db).pruneDetachedKeys(DELIVER_QUEUE);
    expect(await b.ctx.db.select().from(federationKeys).where(eq(federationKeys.id, erin.id))).toEqual([]);
  });

  describe("B's inbox refuses, storing nothing", () => {
    const urlsA = () => new FederationUrls(a.base);
    const inboxB = () => new URL(`${b.base}/ap/inbox`);
    const videoDoc = (id: string, host = new URL(a.base).host) => ({
      type: 'Video',
      id: `http://${host}/ap/videos/${id}`,
      name: `Sent ${id}`,
      duration: 'PT10S',
      uuid: id,
      published: new Date().toISOString(),
      url: [{ type: 'Link', mediaType: 'text/html', href: `http://${host}/video/${id}` }],
      attributedTo: [urlsA().channel(alice.id)],
    });
    const create = (object: object, id = `${urlsA().base}/ap/activities/create/${newId()}`) => ({
      '@context': 'https://www.w3.org/ns/activitystreams',
      type: 'Create',
      id,
      actor: urlsA().channel(alice.id),
      object,
    });
    const post = async (activity: object, opts: { privateKeyPem?: string; now?: Date; tamper?: boolean } = {}) => {
      const key = await keyFor(a.ctx.db, { kind: 'channel', userId: alice.id });
      const body = JSON.stringify(activity);
      const headers = signRequest({
        method: 'POST',
        url: inboxB(),
        body,
        keyId: urlsA().keyId(urlsA().channel(alice.id)),
        privateKeyPem: opts.privateKeyPem ?? key.privateKeyPem,
        now: opts.now,
      });
      return fetch(inboxB(), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/activity+json' },
        body: opts.tamper ? body.replace('Sent', 'Tampered') : body,
      });
    };
    const stored = async (uuid: string) => (await b.ctx.db.select().from(remoteVideos).where(eq(remoteVideos.uri, `${a.base}/ap/videos/${uuid}`))).length;

    it('accepts a correctly signed Create from the followed channel (the control case)', async () => {
      const id = newId();
      const res = await post(create(videoDoc(id)));
      expect(res.status).toBe(202);
      expect(await stored(id)).toBe(1);
    });

    it("as PeerTube sends them: from the channel's account, attributed to the account and the followed channel; Delete likewise", async () => {
      const id = newId();
      const account = urlsA().account(alice.id);
      const object = { ...videoDoc(id), attributedTo: [{ type: 'Person', id: account }, { type: 'Group', id: urlsA().channel(alice.id) }] };
      const key = await keyFor(a.ctx.db, { kind: 'account', userId: alice.id });
      const send = async (activity: object) => {
        const body = JSON.stringify(activity);
        const headers = signRequest({ method: 'POST', url: inboxB(), body, keyId: urlsA().keyId(account), privateKeyPem: key.privateKeyPem });
        return fetch(inboxB(), { method: 'POST', headers: { ...headers, 'content-type': 'application/activity+json' }, body });
      };
      expect((await send({ ...create(object), actor: account })).status).toBe(202);
      expect(await stored(id)).toBe(1);
      const del = { type: 'Delete', id: `${urlsA().base}/ap/activities/delete/${newId()}`, actor: account, object: object.id };
      expect((await send(del)).status).toBe(202);
      expect(await stored(id)).toBe(0);
    });

    it('an Announce of a public video of B counts as a share on B, once per actor; its Undo removes it', async () => {
      const video = await createVideo(b.ctx, bob, { title: 'Shared' });
      const shares = async () => (await b.ctx.db.select().from(remoteShares).where(eq(remoteShares.videoId, video.id))).length;
      const announce = () => ({ type: 'Announce', id: `${urlsA().base}/ap/activities/announce/${newId()}`, actor: urlsA().channel(alice.id), object: `${b.base}/ap/videos/${video.id}` });
      const first = announce();
      expect((await post(first)).status).toBe(202);
      expect((await post(announce())).status).toBe(202);
      expect(await shares()).toBe(1);
      const undo = { type: 'Undo', id: `${urlsA().base}/ap/activities/undo/${newId()}`, actor: urlsA().channel(alice.id), object: first };
      expect((await post(undo)).status).toBe(202);
      expect(await shares()).toBe(0);
    });

    it('a forged signature (another key under the channel keyId)', async () => {
      const id = newId();
      const forged = await newKeyPair();
      const res = await post(create(videoDoc(id)), { privateKeyPem: forged.privateKeyPem });
      expect(res.status).toBe(401);
      expect(await stored(id)).toBe(0);
    });

    it('a body changed after signing (Digest) and a stale Date', async () => {
      const id = newId();
      expect((await post(create(videoDoc(id)), { tamper: true })).status).toBe(401);
      expect((await post(create(videoDoc(id)), { now: new Date(Date.now() - 2 * 3600_000) })).status).toBe(401);
      expect(await stored(id)).toBe(0);
    });

    it('a replayed activity id', async () => {
      const activityId = `${urlsA().base}/ap/activities/create/${newId()}`;
      const first = newId();
      expect((await post(create(videoDoc(first), activityId))).status).toBe(202);
      const second = newId();
      const replay = await post(create(videoDoc(second), activityId));
      expect(replay.status).toBe(409);
      expect(await stored(second)).toBe(0);
    });

    it('an object claiming another host', async () => {
      const id = newId();
      const res = await post(create(videoDoc(id, 'victim.example')));
      expect(res.status).toBe(403);
      const rows = await b.ctx.db.select().from(remoteVideos).where(eq(remoteVideos.uri, `http://victim.example/ap/videos/${id}`));
      expect(rows).toHaveLength(0);
    });
  });

  describe("A blocks B's host", () => {
    it('only an admin may block', async () => {
      const res = await a.app.inject({ method: 'POST', url: '/api/v1/admin/federation/blocks', headers: await bearer(a.ctx, alice), payload: { target: 'example.org' } });
      expect(res.statusCode).toBe(403);
    });

    it('stops delivery both ways and refuses what B sends, storing nothing', async () => {
      const hostA = new URL(a.base).host;
      const hostB = new URL(b.base).host;
      const admin = await createUser(a.ctx, { role: 'admin' });
      const adminAuth = await bearer(a.ctx, admin);
      const block = await a.app.inject({ method: 'POST', url: '/api/v1/admin/federation/blocks', headers: adminAuth, payload: { target: hostB } });
      expect(block.statusCode).toBe(201);
      expect(block.json().data).toMatchObject({ target: hostB, kind: 'host' });
      // B's follower is forgotten: A's count drops.
      const count = async () => (await a.ctx.db.select({ n: users.subscriberCount }).from(users).where(eq(users.id, alice.id)))[0]!.n;
      expect(await count()).toBe(0);
      expect(await counterMismatches(a.ctx.db)).toEqual([]);

      // A new public video of A reaches no one on B.
      await createVideo(a.ctx, alice, { privacy: 'private', title: 'After the block' }).then((v) =>
        a.app.inject({ method: 'PATCH', url: `/api/v1/videos/${v.id}/publish`, headers: adminAuth, payload: { isPublished: true } }),
      );
      await drain(a);
      expect((await feedOfBob()).map((v) => v.title)).not.toContain('After the block');

      // B's user follows again: B delivers, A refuses; the count stays 0.
      const carol = await createUser(b.ctx, { userName: 'carol' });
      const follow = await b.app.inject({ method: 'POST', url: '/api/v1/federation/follows', headers: await bearer(b.ctx, carol), payload: { handle: `@alice@${hostA}` } });
      expect(follow.statusCode).toBe(200);
      const carolAuth = await bearer(b.ctx, carol);
      await drain(b); // the Follow: A's inbox answers 403, a final refusal
      await drain(a);
      expect(await count()).toBe(0);
      const channelPage = await b.app.inject({ method: 'GET', url: `/api/v1/federation/channels/${follow.json().data._id}`, headers: carolAuth });
      expect(channelPage.json().data.channel.following).toBe('pending');

      // A's users cannot follow B's channels.
      const dave = await createUser(a.ctx, { userName: 'dave' });
      const out = await a.app.inject({ method: 'POST', url: '/api/v1/federation/follows', headers: await bearer(a.ctx, dave), payload: { handle: `@bob@${hostB}` } });
      expect(out.statusCode).toBe(403);

      // Unblocked, B is reachable again...
      const unblock = await a.app.inject({ method: 'DELETE', url: `/api/v1/admin/federation/blocks?target=${encodeURIComponent(hostB)}`, headers: adminAuth });
      expect(unblock.statusCode).toBe(200);
      // ...until A federates with an allow-list only: B is out until listed.
      const put = (mode: string) => a.app.inject({ method: 'PUT', url: '/api/v1/admin/federation/policy', headers: adminAuth, payload: { mode } });
      expect((await put('allowlist')).json().data).toEqual({ mode: 'allowlist', allowedHosts: [] });
      const followB = async () =>
        a.app.inject({ method: 'POST', url: '/api/v1/federation/follows', headers: await bearer(a.ctx, dave), payload: { handle: `@bob@${hostB}` } });
      expect((await followB()).statusCode).toBe(403);
      const allow = await a.app.inject({ method: 'POST', url: '/api/v1/admin/federation/allowed-hosts', headers: adminAuth, payload: { host: hostB } });
      expect(allow.json().data).toEqual({ mode: 'allowlist', allowedHosts: [hostB] });
      expect((await followB()).statusCode).toBe(200);
      await put('open');
    });
  });
});
