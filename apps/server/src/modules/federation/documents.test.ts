import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { EVENTS_QUEUE } from '../../events/events.ts';
import { createWorker } from '../../worker.ts';
import { bearer, createTestApp, createUser, createVideo, expectApiError, memoryLog, multipartBody, TEST_ENV, type TestContext } from '../../../test/harness.ts';
import { DELIVER_QUEUE } from './delivery.ts';
import { ModerationRepository } from '../moderation/moderation.repository.ts';
import { FederatedModeration } from './federated-moderation.ts';
import { FederationRepository, type RemoteActorRow } from './federation.repository.ts';
import { newId } from '../../lib/ids.ts';
import type { UserRow } from '../users/users.repository.ts';
import { builtIndex } from '../pages/built-app.fixture.ts';
import { isPrivateAddress, safeFetch } from './safe-fetch.ts';
import { parseRemoteActor } from './incoming.ts';
import { FederatedComments } from './federated-comments.ts';
import { remoteMediaOrigins } from './media-origins.ts';
import { WatchedWordsService } from '../watched-words/watched-words.service.ts';

/**
 * The documents Glimpse serves, checked against the rules PeerTube's validators apply to what it
 * receives and what Mastodon reads. Sources (PeerTube 7, Chocobozzz/PeerTube):
 * - [misc] server/core/helpers/custom-validators/activitypub/misc.ts (isActivityPubUrlValid,
 *   setValidAttributedTo, setValidRemoteIcon, isActivityPubVideoDurationValid)
 * - [actor] .../activitypub/actor.ts (sanitizeAndCheckActorObject, actorNameAlphabet)
 * - [videos] .../activitypub/videos.ts (sanitizeAndCheckVideoTorrentObject, isRemoteVideoUrlValid,
 *   setValidRemoteCaptions, setAPCaptionUrlObject, isRemoteStringIdentifierValid)
 * - [names] server/core/initializers/constants.ts CONSTRAINTS_FIELDS.VIDEOS.NAME (3..120)
 * Mastodon 4: app/services/resolve_account_service.rb and app/lib/webfinger.rb read the WebFinger
 * `self` link of type application/activity+json; app/lib/activitypub/parser/media_attachment_parser.rb
 * and status_parser.rb read a Video's name, content, url and icon.
 */

let t: TestContext;
let alice: UserRow;
let videoId: string;
const BASE = 'http://glimpse.test';

beforeAll(async () => {
  const web = await mkdtemp(path.join(os.tmpdir(), 'glimpse-fed-web-'));
  await writeFile(path.join(web, 'index.html'), builtIndex());
  t = await createTestApp({ WEB_DIST: web, PUBLIC_URL: BASE });
  alice = await createUser(t.ctx, { userName: 'alice_ch', fullName: 'Alice <b>Channel</b>' });
  videoId = newId();
  // With the files a transcode writes (thumbnail and HLS master) under the video's folder.
  await createVideo(t.ctx, alice, {
    id: videoId,
    title: 'A federated video',
    description: 'Some **markdown**',
    duration: 61.4,
    width: 640,
    height: 360,
    thumbnailKey: `videos/${videoId}/thumbnail.jpg`,
    hlsKey: `videos/${videoId}/hls/master.m3u8`,
    progressiveKey: `videos/${videoId}/video.mp4`,
    renditions: ['240p', '360p'],
    renditionsReady: ['240p', '360p'],
  });
  await t.ctx.storage.putBuffer(`videos/${videoId}/video.mp4`, Buffer.alloc(1234), 'video/mp4');
});

afterAll(async () => {
  await t?.close();
});

const ap = { accept: 'application/activity+json' };
const get = (url: string, headers: Record<string, string> = ap) => t.app.inject({ method: 'GET', url, headers });

/** [misc] isActivityPubUrlValid: an http(s) URL with a host. */
const isApUrl = (u: unknown) => typeof u === 'string' && /^https?:\/\/[^/\s]+/.test(u) && u.length <= 2000;

describe('WebFinger', () => {
  it('answers acct:name@host with the self link Mastodon and PeerTube follow', async () => {
    const res = await get(`/.well-known/webfinger?resource=acct:alice_ch@glimpse.test`, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/jrd\+json/);
    const jrd = res.json();
    expect(jrd.subject).toBe('acct:alice_ch@glimpse.test');
    // Mastodon (webfinger.rb): the link with rel self and type application/activity+json is the actor.
    const self = jrd.links.find((l: { rel: string }) => l.rel === 'self');
    expect(self).toEqual({ rel: 'self', type: 'application/activity+json', href: `${BASE}/ap/channels/${alice.id}` });
    expect(jrd.links.some((l: { rel: string; href: string }) => l.rel === 'http://webfinger.net/rel/profile-page' && l.href === `${BASE}/channel/@alice_ch`)).toBe(true);
  });

  it('refuses another host and unknown names, and asks for a resource', async () => {
    expectApiError(await get('/.well-known/webfinger?resource=acct:alice_ch@elsewhere.example', {}), 404);
    expectApiError(await get('/.well-known/webfinger?resource=acct:nobody@glimpse.test', {}), 404);
    expectApiError(await get('/.well-known/webfinger', {}), 400);
  });
});

describe('NodeInfo', () => {
  it('links 2.0 from /.well-known/nodeinfo and describes the server (nodeinfo.diaspora.software schema 2.0)', async () => {
    const wk = (await get('/.well-known/nodeinfo', {})).json();
    expect(wk.links[0].rel).toBe('http://nodeinfo.diaspora.software/ns/schema/2.0');
    const info = (await get(new URL(wk.links[0].href).pathname, {})).json();
    expect(info).toMatchObject({ version: '2.0', protocols: ['activitypub'], software: { name: 'glimpse' }, usage: { users: { total: 1 }, localPosts: 1 } });
    // The schema's software.name pattern.
    expect(info.software.name).toMatch(/^[a-z0-9-]+$/);
    expect(typeof info.openRegistrations).toBe('boolean');
  });
});

describe('channel actor', () => {
  it('is a Group PeerTube accepts ([actor] sanitizeAndCheckActorObject)', async () => {
    const res = await get(`/ap/channels/${alice.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/activity\+json/);
    const actor = res.json();
    expect(actor['@context']).toContain('https://www.w3.org/ns/activitystreams');
    expect(['Person', 'Application', 'Group', 'Service', 'Organization']).toContain(actor.type);
    expect(actor.type).toBe('Group');
    for (const field of ['id', 'inbox', 'outbox', 'followers', 'following']) expect(isApUrl(actor[field]), field).toBe(true);
    expect(isApUrl(actor.endpoints.sharedInbox)).toBe(true);
    // [actor] actorNameAlphabet
    expect(actor.preferredUsername).toMatch(/^[A-Za-z0-9\-_.:]+$/);
    // [actor] isActorPublicKeyObjectValid
    expect(actor.publicKey.owner).toBe(actor.id);
    expect(isApUrl(actor.publicKey.id)).toBe(true);
    expect(actor.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----\s*$/);
    // [actor] a Group must be attributed to an account; [misc] setValidAttributedTo keeps Person/Group with a URL id.
    expect(actor.attributedTo.length).toBeGreaterThan(0);
    expect(actor.attributedTo[0]).toEqual({ type: 'Person', id: `${BASE}/ap/accounts/${alice.id}` });
    // [actor] setValidUrls: Links of mediaType text/html.
    expect(actor.url).toEqual([{ type: 'Link', mediaType: 'text/html', href: `${BASE}/channel/@alice_ch` }]);
    expect(actor.name).toBe('Alice <b>Channel</b>');
  });

  it('the account it is attributed to resolves, and the key stays the same between requests', async () => {
    const person = (await get(`/ap/accounts/${alice.id}`)).json();
    expect(person.type).toBe('Person');
    expect(person.id).toBe(`${BASE}/ap/accounts/${alice.id}`);
    const again = (await get(`/ap/channels/${alice.id}`)).json();
    expect(again.publicKey.publicKeyPem).toBe(person.publicKey.publicKeyPem);
  });

  it('the instance actor is an Application with a key', async () => {
    const actor = (await get('/ap/actor')).json();
    expect(actor.type).toBe('Application');
    expect(actor.publicKey.owner).toBe(actor.id);
  });

  it('content negotiation: the channel page answers the actor to ActivityPub clients, the page to browsers', async () => {
    for (const accept of ['application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']) {
      const res = await get('/channel/@alice_ch', { accept });
      expect(res.headers['content-type']).toMatch(/application\/activity\+json/);
      expect(res.json().id).toBe(`${BASE}/ap/channels/${alice.id}`);
    }
    const page = await get('/channel/@alice_ch', { accept: 'text/html,application/xhtml+xml' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('Video object', () => {
  it("passes PeerTube's checks ([videos] sanitizeAndCheckVideoTorrentObject)", async () => {
    const res = await get(`/ap/videos/${videoId}`);
    expect(res.statusCode).toBe(200);
    const v = res.json();
    expect(v.type).toBe('Video');
    expect(isApUrl(v.id)).toBe(true);
    // [names] 3..120 characters
    expect(v.name.length).toBeGreaterThanOrEqual(3);
    expect(v.name.length).toBeLessThanOrEqual(120);
    // [misc] isActivityPubVideoDurationValid: 'PT...S'
    expect(v.duration).toBe('PT61S');
    expect(v.uuid).toBe(videoId);
    expect(Number.isInteger(v.views) && v.views >= 0).toBe(true);
    expect(Number.isNaN(Date.parse(v.published))).toBe(false);
    expect(Number.isNaN(Date.parse(v.updated))).toBe(false);
    // [videos] isRemoteVideoContentValid: markdown or html content
    expect(v.mediaType).toBe('text/markdown');
    expect(v.content).toBe('Some **markdown**');
    // [misc] setValidRemoteIcon + [videos] `video.icon.length === 0` fails: an Image with url, image mediaType, integer sizes.
    expect(v.icon.length).toBeGreaterThan(0);
    for (const icon of v.icon) {
      expect(icon.type).toBe('Image');
      expect(isApUrl(icon.url)).toBe(true);
      expect(icon.mediaType).toMatch(/^image\/(jpeg|png|webp)$/);
      expect(Number.isInteger(icon.width) && Number.isInteger(icon.height)).toBe(true);
    }
    // [videos] isRemoteVideoUrlValid: the HLS playlist Link has a URL and a tag array; the page is text/html (Mastodon links it).
    const hls = v.url.find((u: { mediaType: string }) => u.mediaType === 'application/x-mpegURL');
    expect(hls.type).toBe('Link');
    expect(isApUrl(hls.href)).toBe(true);
    expect(Array.isArray(hls.tag)).toBe(true);
    expect(v.url).toContainEqual({ type: 'Link', mediaType: 'text/html', href: `${BASE}/video/${videoId}` });
    // [videos] isRemoteVideoUrlValid: a file Link (video/mp4 is in MIMETYPES.AP_VIDEO) has a URL, an integer height and an integer byte size.
    expect(v.url).toContainEqual({ type: 'Link', mediaType: 'video/mp4', href: `${BASE}/api/v1/videos/video/${videoId}.mp4`, height: 360, size: 1234 });
    // [misc] setValidAttributedTo then `attributedTo.length === 0` fails.
    expect(v.attributedTo).toEqual([
      { type: 'Person', id: `${BASE}/ap/accounts/${alice.id}` },
      { type: 'Group', id: `${BASE}/ap/channels/${alice.id}` },
    ]);
    expect(v.to).toEqual(['https://www.w3.org/ns/activitystreams#Public']);
    expect(typeof v.commentsEnabled).toBe('boolean');
    expect(typeof v.downloadEnabled).toBe('boolean');
  });

  it("lists its caption tracks as PeerTube's subtitleLanguage, and a caption change is told to federation", async () => {
    const headers = await bearer(t.ctx, alice);
    const events = () => queryRows<{ kind: string }>(t.ctx.db, sql`SELECT kind FROM events WHERE payload->>'videoId' = ${videoId}`);
    const form = multipartBody({ label: 'Français', file: { filename: 'fr.vtt', content: Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBonjour\n') } });
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/videos/${videoId}/captions/fr`, headers: { ...headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(200);
    // Listed: the caption change is an event federation turns into an Update of the Video.
    expect(await events()).toEqual([{ kind: 'videoChanged' }]);
    const v = (await get(`/ap/videos/${videoId}`)).json();
    // [videos] setValidRemoteCaptions keeps an entry whose `identifier` is a string
    // (isRemoteStringIdentifierValid) and whose `url` is an http(s) URL: a string (PeerTube 6 reads it
    // so; PeerTube 7 turns it into a text/vtt Link) or Links of type text/vtt (setAPCaptionUrlObject).
    expect(v.subtitleLanguage).toEqual([{ identifier: 'fr', name: 'Français', url: expect.stringMatching(new RegExp(`^${BASE}/media/videos/${videoId}/pub-[0-9a-f]+/captions/fr-[0-9a-f]{12}\\.vtt$`)) }]);
    expect(isApUrl(v.subtitleLanguage[0].url)).toBe(true);
    const vtt = await t.app.inject({ method: 'GET', url: v.subtitleLanguage[0].url.slice(BASE.length) });
    expect(vtt.statusCode).toBe(200);
    expect(vtt.body).toContain('Bonjour');
    // Glimpse keeps no licence, language, category or tags: none is sent ([videos] checks each only when it exists).
    for (const field of ['licence', 'language', 'category']) expect(v).not.toHaveProperty(field);
    expect(v.tag).toEqual([]);

    // Removing it is told too, and the track leaves the Video.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${videoId}/captions/fr`, headers })).statusCode).toBe(200);
    expect(await events()).toEqual([{ kind: 'videoChanged' }, { kind: 'videoChanged' }]);
    expect((await get(`/ap/videos/${videoId}`)).json().subtitleLanguage).toEqual([]);
    // Told now, while nobody follows alice (the tweets test counts what her followers get).
    const worker = createWorker(t.ctx, memoryLog());
    while (await worker.runOnce([EVENTS_QUEUE]));
  });

  it('the video page answers the Video to ActivityPub clients', async () => {
    const res = await get(`/video/${videoId}`);
    expect(res.json().id).toBe(`${BASE}/ap/videos/${videoId}`);
  });

  it('unlisted and private videos are not served', async () => {
    for (const privacy of ['unlisted', 'private'] as const) {
      const hidden = await createVideo(t.ctx, alice, { privacy });
      expectApiError(await get(`/ap/videos/${hidden.id}`), 404);
      const page = await get(`/video/${hidden.id}`);
      expect(page.headers['content-type']).not.toMatch(/activity\+json/);
    }
  });
});

describe('remote fetches refuse the local network', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0'])(
    '%s is private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it('public addresses pass', () => {
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) expect(isPrivateAddress(address)).toBe(false);
  });

  it('following a channel on a loopback or private address is refused (502, nothing stored) without the test setting', async () => {
    for (const handle of ['@someone@127.0.0.1:9', 'http://10.0.0.1/actors/1', '@someone@localhost:9']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/federation/follows', headers: await bearer(t.ctx, alice), payload: { handle } });
      expectApiError(res, 502, 'The remote server could not be reached');
    }
    expect(await queryRows(t.ctx.db, sql`SELECT 1 FROM remote_actors WHERE host IN ('127.0.0.1:9', '10.0.0.1', 'localhost:9')`)).toEqual([]);
  });

  it('the test-only setting that lifts the guard is refused in production', () => {
    const env = { ...TEST_ENV, DATA_DIR: os.tmpdir(), FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true' };
    expect(() => loadConfig({ ...env, NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(loadConfig(env).federation.allowPrivateAddresses).toBe(true);
  });

  it('a name resolving to loopback is refused at connect time; only http(s) is fetched', async () => {
    await expect(safeFetch(new URL('http://localhost:9/'), { allowPrivate: false })).rejects.toThrow(/refused address/);
    await expect(safeFetch(new URL('file:///etc/passwd'), { allowPrivate: true })).rejects.toThrow(/refused scheme/);
  });

  it('a server that answers a byte at a time is cut at the timeout of the whole exchange, not only of silence', async () => {
    const drip = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/activity+json' });
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const url = new URL(`http://127.0.0.1:${(drip.address() as AddressInfo).port}/actor`);
      await expect(safeFetch(url, { allowPrivate: true, timeoutMs: 1_000 })).rejects.toThrow(/timed out/);
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      drip.closeAllConnections();
      await new Promise((resolve) => drip.close(resolve));
    }
  });
});

describe('an incoming Flag', () => {
  it('becomes a report only from a server with a tie, once per actor and target; of an account and its content, the content', async () => {
    const repo = new FederationRepository(t.ctx.db);
    const actorOn = (host: string) =>
      repo.upsertRemoteActor({
        id: newId(),
        uri: `https://${host}/actor`,
        host,
        type: 'Application',
        preferredUsername: host,
        name: host,
        inbox: `https://${host}/inbox`,
        publicKeyId: `https://${host}/actor#main-key`,
        publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
      });
    const moderation = new FederatedModeration(t.ctx);
    const flag = (actor: RemoteActorRow, object: unknown) =>
      t.ctx.db.transaction((tx) =>
        moderation.receiveFlag(new FederationRepository(tx), new ModerationRepository(tx), actor, {
          type: 'Flag',
          content: '<b>Nasty</b>',
          object,
          tag: [{ type: 'Hashtag', name: 'spamOrMisleading' }],
        }),
      );
    const stranger = await actorOn('stranger.example');
    expect(await flag(stranger, `${BASE}/ap/videos/${videoId}`)).toBe('ignored');
    const friend = await actorOn('friend.example');
    // The tie: it follows a channel here (another than alice's, whose followers the tweets test counts).
    const other = await createUser(t.ctx, { userName: 'flag_tie' });
    await repo.addFollower(other.id, friend.id, 'https://friend.example/follows/1');
    // Mastodon's shape: the account and the status; PeerTube's: one URL.
    expect(await flag(friend, [`${BASE}/ap/accounts/${alice.id}`, `${BASE}/ap/videos/${videoId}`])).toBe('reported');
    expect(await flag(friend, `${BASE}/ap/videos/${videoId}`)).toBe('ignored');
    const rows = await queryRows(t.ctx.db, sql`SELECT target_kind, target_id, reason, text, reporter_actor_id FROM reports WHERE reporter_actor_id IS NOT NULL`);
    expect(rows).toEqual([{ target_kind: 'video', target_id: videoId, reason: 'spam', text: 'Nasty', reporter_actor_id: friend.id }]);
  });
});

describe('inbox bounds', () => {
  const post = (app: TestContext['app'], payload: string, headers: Record<string, string> = { 'content-type': 'application/activity+json' }) =>
    app.inject({ method: 'POST', url: '/ap/inbox', payload, headers });

  it('refuses an unsigned activity, a body over 256 kB and a body that is not an activity type', async () => {
    expectApiError(await post(t.app, JSON.stringify({ type: 'Follow' })), 401, 'A signed request is required');
    expectApiError(await post(t.app, JSON.stringify({ type: 'Note', content: 'x'.repeat(300 * 1024) })), 413);
    expectApiError(await post(t.app, 'type=Follow', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
  });

  it('limits activities per minute per client address', async () => {
    const limited = await createTestApp({ RATE_LIMITS_ENABLED: 'true', FEDERATION_INBOX_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 2; i++) expect((await post(limited.app, '{}')).statusCode).toBe(401);
      expectApiError(await post(limited.app, '{}'), 429);
    } finally {
      await limited.close();
    }
  });
});

describe('tweets', () => {
  it("go to the channel's remote followers as a Note, served at its id (Public, from the channel)", async () => {
    const repo = new FederationRepository(t.ctx.db);
    const actor = await repo.upsertRemoteActor({
      id: newId(),
      uri: 'https://remote.example/users/fan',
      host: 'remote.example',
      type: 'Person',
      preferredUsername: 'fan',
      name: 'Fan',
      inbox: 'https://remote.example/users/fan/inbox',
      sharedInbox: 'https://remote.example/inbox',
      publicKeyId: 'https://remote.example/users/fan#main-key',
      publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
    });
    await repo.addFollower(alice.id, actor.id, 'https://remote.example/follows/1');
    const form = multipartBody({ content: 'Hello <world>\nsecond line' });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/tweets', headers: { ...(await bearer(t.ctx, alice)), ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    const tweetId = res.json().data._id as string;
    // The event's fan-out only (the delivery itself would go to remote.example).
    const worker = createWorker(t.ctx, memoryLog());
    while (await worker.runOnce([EVENTS_QUEUE]));
    const [job] = await queryRows<{ payload: { inbox: string; activity: { type: string; object: Record<string, unknown> } } }>(
      t.ctx.db,
      sql`SELECT payload FROM jobs WHERE queue = ${DELIVER_QUEUE}`,
    );
    expect(job!.payload.inbox).toBe('https://remote.example/inbox');
    expect(job!.payload.activity.type).toBe('Create');
    const note = (await get(`/ap/tweets/${tweetId}`)).json();
    expect(job!.payload.activity.object).toEqual(Object.fromEntries(Object.entries(note).filter(([k]) => k !== '@context')));
    expect(note).toMatchObject({
      type: 'Note',
      id: `${BASE}/ap/tweets/${tweetId}`,
      url: `${BASE}/tweet/${tweetId}`,
      attributedTo: `${BASE}/ap/channels/${alice.id}`,
      content: '<p>Hello &lt;world&gt;<br>second line</p>',
      to: ['https://www.w3.org/ns/activitystreams#Public'],
    });

    // An edit sends Update of the Note, a deletion Delete of its Tombstone (Mastodon's shape for a removed status).
    const sent = async () => {
      while (await worker.runOnce([EVENTS_QUEUE]));
      const rows = await queryRows<{ payload: { activity: { type: string; object: { type: string; id: string; content?: string } } } }>(
        t.ctx.db,
        sql`SELECT payload FROM jobs WHERE queue = ${DELIVER_QUEUE} ORDER BY run_at`,
      );
      return rows.map((r) => r.payload.activity).slice(1);
    };
    const edit = multipartBody({ content: 'Edited' });
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/tweets/${tweetId}`, headers: { ...(await bearer(t.ctx, alice)), ...edit.headers }, payload: edit.payload });
    expect(patched.statusCode).toBe(200);
    expect(await sent()).toMatchObject([{ type: 'Update', object: { type: 'Note', id: `${BASE}/ap/tweets/${tweetId}`, content: '<p>Edited</p>' } }]);
    // A moderator's take-down sends Delete, the restore Update; the owner's deletion Delete.
    const moderator = await bearer(t.ctx, await createUser(t.ctx, { role: 'moderator' }));
    const staff = (action: string) =>
      t.app.inject({ method: 'POST', url: `/api/v1/moderation/targets/tweet/${tweetId}/${action}`, headers: moderator, payload: { reason: 'Spam' } });
    expect((await staff('take-down')).statusCode).toBe(200);
    expect((await sent()).map((a) => a.type)).toEqual(['Update', 'Delete']);
    expect((await staff('restore')).statusCode).toBe(200);
    expect((await sent()).map((a) => a.type)).toEqual(['Update', 'Delete', 'Update']);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/tweets/${tweetId}`, headers: await bearer(t.ctx, alice) });
    expect(deleted.statusCode).toBe(200);
    expect((await sent())[3]).toMatchObject({ type: 'Delete', object: { type: 'Tombstone', id: `${BASE}/ap/tweets/${tweetId}` } });
  });
});

describe('local comments', () => {
  it("on a federated video go to the channel's followers as the author's Note: Create, Update after an edit, Delete when held or deleted", async () => {
    // Alice's video went out (the caption test told federation) and remote.example follows her (the tweets test).
    const worker = createWorker(t.ctx, memoryLog());
    const sent = async () => {
      while (await worker.runOnce([EVENTS_QUEUE]));
      const rows = await queryRows<{ payload: { inbox: string; activity: { type: string; actor: string; object: { type: string; id: string; content?: string; inReplyTo?: string } } } }>(
        t.ctx.db,
        sql`SELECT payload FROM jobs WHERE queue = ${DELIVER_QUEUE} AND payload->'activity'->'object'->>'id' LIKE ${`${BASE}/ap/video-comments/%`} ORDER BY created_at, id`,
      );
      return rows.map((r) => r.payload);
    };
    const bea = await createUser(t.ctx, { userName: 'bea_fed' });
    const auth = await bearer(t.ctx, bea);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/comments/video/${videoId}`, headers: auth, payload: { content: 'Nice & <short>' } });
    expect(res.statusCode).toBe(201);
    const id = res.json().data._id as string;
    const note = `${BASE}/ap/video-comments/${id}`;
    const [create] = await sent();
    expect(create).toMatchObject({
      inbox: 'https://remote.example/inbox',
      activity: { type: 'Create', actor: `${BASE}/ap/accounts/${bea.id}`, object: { type: 'Note', id: note, content: '<p>Nice &amp; &lt;short&gt;</p>', inReplyTo: `${BASE}/ap/videos/${videoId}` } },
    });
    // Served at its id, the same Note.
    const served = await get(`/ap/video-comments/${id}`);
    expect(served.statusCode).toBe(200);
    expect(served.json()).toMatchObject(create!.activity.object);

    // Another server's Flag naming the Note is a report of the comment (remote.example has a tie: it follows alice).
    const fan = (await new FederationRepository(t.ctx.db).remoteActorByUri('https://remote.example/users/fan'))!;
    const flagged = await t.ctx.db.transaction((tx) =>
      new FederatedModeration(t.ctx).receiveFlag(new FederationRepository(tx), new ModerationRepository(tx), fan, { type: 'Flag', content: 'Rude', object: note }),
    );
    expect(flagged).toBe('reported');
    expect(await queryRows(t.ctx.db, sql`SELECT target_kind, reason FROM reports WHERE target_id = ${id}`)).toEqual([{ target_kind: 'comment', reason: 'other' }]);

    const edit = (content: string) => t.app.inject({ method: 'PATCH', url: `/api/v1/comments/${id}`, headers: auth, payload: { content } });
    expect((await edit('Nicer')).statusCode).toBe(200);
    expect((await sent()).map((p) => [p.activity.type, p.activity.object.content ?? null])).toEqual([
      ['Create', '<p>Nice &amp; &lt;short&gt;</p>'],
      ['Update', '<p>Nicer</p>'],
    ]);
    // Held by a watched word: no longer shown, so its Note is deleted (and not served).
    await new WatchedWordsService(t.ctx).add('forbiddenword');
    expect((await edit('a forbiddenword here')).statusCode).toBe(200);
    expect((await sent()).map((p) => p.activity.type)).toEqual(['Create', 'Update', 'Delete']);
    expectApiError(await get(`/ap/video-comments/${id}`), 404);
    // Deleted while held: nothing more to send.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/comments/${id}`, headers: auth })).statusCode).toBe(200);
    expect((await sent()).map((p) => p.activity.type)).toEqual(['Create', 'Update', 'Delete']);
  });
});

describe('remote media addresses and our pages’ Content-Security-Policy', () => {
  const actorDoc = (icon: string) => ({
    type: 'Person',
    id: 'https://peer.example/users/ann',
    inbox: 'https://peer.example/users/ann/inbox',
    preferredUsername: 'ann',
    icon: { type: 'Image', url: icon },
    publicKey: { id: 'https://peer.example/users/ann#main-key', owner: 'https://peer.example/users/ann', publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx' },
  });
  const from = new URL('https://peer.example/users/ann');

  it('keeps an avatar address only with a plain host, and as parsed (tabs and newlines gone)', () => {
    expect(parseRemoteActor(actorDoc('https://cdn.evil.example;x/a.png'), from, newId)?.iconUrl).toBeNull();
    expect(parseRemoteActor(actorDoc("https://cdn.evil.example,'*'/a.png"), from, newId)?.iconUrl).toBeNull();
    expect(parseRemoteActor(actorDoc('https://cdn.peer.exa\tmple/a b.png'), from, newId)?.iconUrl).toBe('https://cdn.peer.example/a%20b.png');
  });

  it('pages keep answering, with a policy naming only plain origins, whatever addresses were stored before', async () => {
    const bad = ['https://cdn.evil.example;x/a.png', 'https://a.example\t*/b.png', 'https://b.example, data:/c.png'];
    for (const [i, icon] of bad.entries()) {
      await t.ctx.db.execute(sql`INSERT INTO remote_actors (id, uri, host, type, preferred_username, name, inbox, public_key_id, public_key_pem, icon_url)
        VALUES (${newId()}, ${`https://old${i}.example/u`}, ${`old${i}.example`}, 'Person', 'u', 'U', ${`https://old${i}.example/inbox`}, 'k', 'pem', ${icon})`);
    }
    await t.ctx.db.execute(sql`INSERT INTO remote_actors (id, uri, host, type, preferred_username, name, inbox, public_key_id, public_key_pem, icon_url)
      VALUES (${newId()}, 'https://fine.example/u', 'fine.example', 'Person', 'u', 'U', 'https://fine.example/inbox', 'k', 'pem', 'https://media.fine.example:8443/a.png')`);
    await remoteMediaOrigins(t.ctx.db).refresh();
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    const imgSrc = String(page.headers['content-security-policy']).split(';').find((d) => d.startsWith('img-src'))!;
    expect(imgSrc).toContain('https://media.fine.example:8443');
    expect(imgSrc).not.toMatch(/evil|\*|\t|data:\/|b\.example,/);
  });
});

describe('blocked hosts', () => {
  it('a blocked name is blocked on any port and in its subdomains; a block naming a port blocks that port only', async () => {
    const repo = new FederationRepository(t.ctx.db);
    await repo.addBlock('evil.example', 'host', alice.id);
    await repo.addBlock('mixed.example:8443', 'host', alice.id);
    for (const host of ['evil.example', 'evil.example:8443', 'x.evil.example', 'a.b.evil.example:443', 'mixed.example:8443']) expect(await repo.isBlocked(host), host).toBe(true);
    for (const host of ['notevil.example', 'evil.example.org', 'mixed.example', 'mixed.example:9000']) expect(await repo.isBlocked(host), host).toBe(false);
    // The block's purge takes the same actors.
    for (const host of ['x.evil.example', 'evil.example:8443', 'notevil.example']) {
      await t.ctx.db.execute(sql`INSERT INTO remote_actors (id, uri, host, type, preferred_username, name, inbox, public_key_id, public_key_pem)
        VALUES (${newId()}, ${`https://${host}/u`}, ${host}, 'Person', 'u', 'U', ${`https://${host}/inbox`}, 'k', 'pem')`);
    }
    await repo.purgeActors({ host: 'evil.example' });
    const left = await queryRows<{ host: string }>(t.ctx.db, sql`SELECT host FROM remote_actors WHERE host IN ('x.evil.example', 'evil.example:8443', 'notevil.example')`);
    expect(left.map((r) => r.host)).toEqual(['notevil.example']);
  });
});

describe('incoming Notes that no database takes as they are', () => {
  it('a NUL in the text, a date past any calendar, a reply to a made-up id: kept clean, or ignored; never a 500', async () => {
    const repo = new FederationRepository(t.ctx.db);
    const actor = await repo.upsertRemoteActor({
      id: newId(),
      uri: 'https://odd.example/users/odd',
      host: 'odd.example',
      type: 'Person',
      preferredUsername: 'odd',
      name: 'Odd',
      inbox: 'https://odd.example/users/odd/inbox',
      publicKeyId: 'https://odd.example/users/odd#main-key',
      publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
    });
    const comments = new FederatedComments(t.ctx);
    const note = (n: number, fields: Record<string, unknown>) => ({
      type: 'Note',
      id: `https://odd.example/notes/${n}`,
      attributedTo: actor.uri,
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      inReplyTo: `${BASE}/ap/videos/${videoId}`,
      content: 'Fine',
      ...fields,
    });
    const receive = (object: Record<string, unknown>) => t.ctx.db.transaction((tx) => comments.receive(new FederationRepository(tx), actor, object, () => false));
    expect(await receive(note(1, { content: 'a\u0000b', published: '-010000-01-01T00:00:00Z' }))).toBe('stored');
    expect(await receive(note(2, { published: '+200000-01-01T00:00:00Z' }))).toBe('stored');
    expect(await receive(note(3, { inReplyTo: `${BASE}/ap/videos/${'0'.repeat(36)}` }))).toBe('ignored');
    expect(await receive(note(4, { inReplyTo: `${BASE}/ap/video-comments/${'-'.repeat(36)}` }))).toBe('ignored');
    const stored = await queryRows<{ content: string; published_at: Date }>(t.ctx.db, sql`SELECT content, published_at FROM federated_comments WHERE uri LIKE 'https://odd.example/notes/%' ORDER BY uri`);
    expect(stored.map((c) => c.content)).toEqual(['ab', 'Fine']);
    for (const c of stored) expect(new Date(c.published_at).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
