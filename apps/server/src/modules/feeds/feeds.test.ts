import { parseFeed } from '@rowanmanning/feed-parser';
import { sql } from 'drizzle-orm';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED_ITEMS } from '@glimpse/contract';
import { sha256 } from '../../lib/hash.ts';
import { createWorker } from '../../worker.ts';
import { createTestApp, createUser, createVideo, memoryLog, TEST_PASSWORD, type TestContext } from '../../../test/harness.ts';
import { call, expectError, rows, type Answer } from '../../../test/http.ts';
import { storeReadyVideo } from '../../../test/media.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let origin: string;
let owner: UserRow;
let fan: UserRow;
/** The owner's public videos: with downloads allowed, and without. */
let downloadable: string;
let streamOnly: string;
let hostile: string;
let hidden: Record<string, string>;

const HOSTILE_TITLE = `Tom & "Jerry's" <script>alert(1)</script> ]]> ]]> a\u0001b`;
const HOSTILE_DESCRIPTION = 'Line one & <b>bold</b>\nline two';

beforeAll(async () => {
  t = await createTestApp();
  origin = t.ctx.config.publicUrl;
  owner = await createUser(t.ctx, { fullName: 'Ada <Lovelace> & Co' });
  fan = await createUser(t.ctx, { fullName: 'Fan' });
  const at = (day: number) => new Date(`2025-01-${String(day).padStart(2, '0')}T10:00:00Z`);
  downloadable = (await storeReadyVideo(t.ctx, owner, { title: 'With download', downloadsEnabled: true, createdAt: at(3) })).id;
  streamOnly = (await storeReadyVideo(t.ctx, owner, { title: 'Stream only', createdAt: at(2) })).id;
  hostile = (await createVideo(t.ctx, owner, { title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, createdAt: at(1) })).id;
  hidden = {
    private: (await storeReadyVideo(t.ctx, owner, { title: 'Private one', privacy: 'private', downloadsEnabled: true })).id,
    unlisted: (await storeReadyVideo(t.ctx, owner, { title: 'Unlisted one', privacy: 'unlisted', downloadsEnabled: true })).id,
    processing: (await createVideo(t.ctx, owner, { title: 'Processing one', status: 'processing' })).id,
    takenDown: (await storeReadyVideo(t.ctx, owner, { title: 'Taken down one', takenDownAt: new Date(), takedownReason: 'Spam' })).id,
  };
});
afterAll(() => t.close());

/** A GET that keeps the raw body (feeds are XML). */
async function get(path: string) {
  const res = await t.app.inject({ method: 'GET', url: path.startsWith(origin) ? path.slice(origin.length) : `/api/v1${path}` });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: () => res.json() as Answer['body'] };
}

/** Fetches a feed, checks it is well-formed XML of the right type, and parses it with a real feed parser. */
async function feedAt(path: string, format: 'rss' | 'atom') {
  const res = await get(path);
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(format === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8');
  expect(XMLValidator.validate(res.body)).toBe(true);
  // eslint-disable-next-line no-control-regex -- no control character may reach the document
  expect(res.body).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
  const feed = parseFeed(res.body);
  expect(feed.meta.type).toBe(format);
  return { res, feed };
}

const titles = (feed: ReturnType<typeof parseFeed>) => feed.items.map((i) => i.title);

describe('GET /feeds/channels/{userName}', () => {
  it('answers 404 for an unknown or suspended channel and 400 for an unknown format, as JSON', async () => {
    const missing = await get('/feeds/channels/nobody-here');
    expectError({ status: missing.status, body: missing.json() }, 404, 'Channel not found');
    const banned = await createUser(t.ctx, { state: 'suspended' });
    await createVideo(t.ctx, banned, { title: 'Banned video' });
    const suspended = await get(`/feeds/channels/${banned.userName}`);
    expectError({ status: suspended.status, body: suspended.json() }, 404, 'Channel not found');
    const bad = await get(`/feeds/channels/${owner.userName}?format=json`);
    expectError({ status: bad.status, body: bad.json() }, 400);
  });

  it.each(['rss', 'atom'] as const)('carries only the videos the public may see in lists, newest first (%s)', async (format) => {
    const { res, feed } = await feedAt(`/feeds/channels/@${owner.userName}?format=${format}`, format);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(titles(feed)).toEqual(['With download', 'Stream only', HOSTILE_TITLE.replace('\u0001', '')]);
    expect(feed.items.map((i) => i.url)).toEqual([downloadable, streamOnly, hostile].map((id) => `${origin}/video/${id}`));
    for (const id of Object.values(hidden)) expect(res.body).not.toContain(id);
    expect(feed.title).toBe(`Ada <Lovelace> & Co (@${owner.userName})`);
    expect(feed.url).toBe(`${origin}/channel/@${owner.userName}/videos`);
    expect(feed.self).toBe(`${origin}/api/v1/feeds/channels/${owner.userName}${format === 'atom' ? '?format=atom' : ''}`);

    const [first] = feed.items;
    expect(first!.url).toBe(`${origin}/video/${downloadable}`);
    expect(first!.id).toBe(`${origin}/video/${downloadable}`);
    expect(first!.published?.toISOString()).toBe('2025-01-03T10:00:00.000Z');
    expect(first!.authors.map((a) => a.name)).toEqual(['Ada <Lovelace> & Co']);
    expect(first!.image?.url).toMatch(new RegExp(`^${origin}/media/videos/${downloadable}/pub-[0-9a-f]{32}/poster\\.jpg$`));
  });

  it.each(['rss', 'atom'] as const)('offers the progressive mp4 as an enclosure only where the owner allows downloads (%s)', async (format) => {
    const { feed } = await feedAt(`/feeds/channels/${owner.userName}?format=${format}`, format);
    const videos = (i: number) => feed.items[i]!.media.filter((m) => m.type === 'video');
    expect(videos(0)).toEqual([
      expect.objectContaining({ url: `${origin}/api/v1/videos/video/${downloadable}.mp4?download=1`, mimeType: 'video/mp4', length: 'progressive mp4'.length }),
    ]);
    expect(videos(1)).toEqual([]);
    expect(videos(2)).toEqual([]);
    // The enclosure is the download the video route serves.
    const file = await get(videos(0)[0]!.url);
    expect([file.status, file.body, String(file.headers['content-disposition'])]).toEqual([200, 'progressive mp4', expect.stringMatching(/^attachment/)]);
  });

  it('escapes titles and descriptions: a hostile one survives the round trip as text', async () => {
    const rss = await feedAt(`/feeds/channels/${owner.userName}`, 'rss');
    const atom = await feedAt(`/feeds/channels/${owner.userName}?format=atom`, 'atom');
    const clean = HOSTILE_TITLE.replace('\u0001', '');
    expect(rss.feed.items[2]!.title).toBe(clean);
    expect(atom.feed.items[2]!.title).toBe(clean);
    // Atom's summary is plain text; RSS's description is HTML, the text escaped in it.
    expect(atom.feed.items[2]!.description).toBe(HOSTILE_DESCRIPTION);
    expect(rss.res.body).toContain('<description>Line one &amp;amp; &amp;lt;b&amp;gt;bold&amp;lt;/b&amp;gt;&lt;br&gt;line two</description>');
    expect(rss.res.body).not.toContain('<script>');
    expect(atom.res.body).not.toContain('<script>');
  });

  it(`carries the newest ${FEED_ITEMS} videos at most`, async () => {
    const busy = await createUser(t.ctx);
    for (let i = 0; i <= FEED_ITEMS; i += 1) await createVideo(t.ctx, busy, { title: `Clip ${i}`, createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)) });
    const { feed } = await feedAt(`/feeds/channels/${busy.userName}`, 'rss');
    expect(feed.items).toHaveLength(FEED_ITEMS);
    expect(feed.items[0]!.title).toBe(`Clip ${FEED_ITEMS}`);
    expect(feed.items.at(-1)!.title).toBe('Clip 1');
  });

  it('dates a scheduled video by its publication, not its upload, and lists it by that', async () => {
    const creator = await createUser(t.ctx);
    await createVideo(t.ctx, creator, { title: 'Public from its upload', createdAt: new Date('2025-02-01T10:00:00Z') });
    const scheduled = await storeReadyVideo(t.ctx, creator, { title: 'Scheduled', privacy: 'private', createdAt: new Date('2025-01-15T10:00:00Z') });
    const publishAt = new Date(Date.now() + 3600_000).toISOString();
    expect((await call(t, 'PATCH', `/videos/${scheduled.id}`, { as: creator, body: { publishAt } })).status).toBe(200);
    // Its time comes (no waiting in tests): the worker publishes it.
    await t.ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE payload ->> 'videoId' = ${scheduled.id} AND status = 'queued'`);
    await createWorker(t.ctx, memoryLog()).drain();
    const [row] = await rows<{ announced_at: Date }>(t, sql`SELECT announced_at FROM videos WHERE id = ${scheduled.id} AND privacy = 'public'`);
    const publishedAt = new Date(row!.announced_at).getTime();
    expect(publishedAt).toBeGreaterThan(Date.parse('2025-02-01T10:00:00Z'));
    for (const format of ['rss', 'atom'] as const) {
      const { feed } = await feedAt(`/feeds/channels/${creator.userName}?format=${format}`, format);
      expect(titles(feed)).toEqual(['Scheduled', 'Public from its upload']);
      // RSS dates have whole seconds.
      expect(feed.items[0]!.published!.getTime()).toBe(format === 'rss' ? Math.floor(publishedAt / 1000) * 1000 : publishedAt);
      expect(feed.items[1]!.published!.toISOString()).toBe('2025-02-01T10:00:00.000Z');
    }
  });
});

describe('the private subscriptions feed', () => {
  const token = (as?: UserRow, method: 'GET' | 'POST' | 'DELETE' = 'POST') => call(t, method, '/feeds/token', { as });

  it('answers 401 without a login on the token routes, 404 for revoking a token that does not exist', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) expectError(await token(undefined, method), 401, 'Please login to manage your private feed');
    const loner = await createUser(t.ctx);
    expectError(await token(loner, 'DELETE'), 404, 'You have no private feed');
    expect((await token(loner, 'GET')).body.data).toEqual({ exists: false, createdAt: null });
  });

  it('answers 404 for an unknown token, as JSON', async () => {
    for (const bad of ['nope', 'A'.repeat(43)]) {
      const res = await get(`/feeds/subscriptions/${bad}`);
      expectError({ status: res.status, body: res.json() }, 404, 'Feed not found');
    }
  });

  it('creates a token shown once, stored hashed, whose feed lists the subscribed channels\' visible videos', async () => {
    const other = await createUser(t.ctx);
    await storeReadyVideo(t.ctx, other, { title: 'Not subscribed' });
    expect((await call(t, 'POST', `/subscriptions/toggle/${owner.id}`, { as: fan })).status).toBe(200);

    const created = await token(fan);
    expect(created.status).toBe(201);
    const { token: secret, rss, atom, createdAt } = created.body.data;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rss).toBe(`${origin}/api/v1/feeds/subscriptions/${secret}`);
    expect(atom).toBe(`${rss}?format=atom`);
    const stored = await rows<{ token_hash: string }>(t, sql`SELECT token_hash FROM feed_tokens WHERE user_id = ${fan.id}`);
    expect(stored).toEqual([{ token_hash: sha256(secret) }]);
    const status = await token(fan, 'GET');
    expect(status.body.data).toEqual({ exists: true, createdAt });
    expect(JSON.stringify(status.body)).not.toContain(secret);

    for (const [url, format] of [[rss, 'rss'], [atom, 'atom']] as const) {
      const { res, feed } = await feedAt(url, format);
      expect(res.headers['cache-control']).toBe('private, max-age=300');
      expect(titles(feed)).toEqual(['With download', 'Stream only', HOSTILE_TITLE.replace('\u0001', '')]);
      for (const id of Object.values(hidden)) expect(res.body).not.toContain(id);
      expect(feed.items[0]!.media.some((m) => m.mimeType === 'video/mp4')).toBe(true);
      expect(feed.items[1]!.media.some((m) => m.mimeType === 'video/mp4')).toBe(false);
    }
  });

  it('a reset invalidates the old token; a revoke ends the feed', async () => {
    const reader = await createUser(t.ctx);
    const first = (await token(reader)).body.data;
    const second = (await token(reader)).body.data;
    expect(second.token).not.toBe(first.token);
    expect((await get(first.rss)).status).toBe(404);
    expect((await get(second.rss)).status).toBe(200);
    expect(await rows(t, sql`SELECT 1 FROM feed_tokens WHERE user_id = ${reader.id}`)).toHaveLength(1);

    const revoked = await token(reader, 'DELETE');
    expect(revoked.body).toMatchObject({ statusCode: 200, message: 'Private feed revoked' });
    const gone = await get(second.atom);
    expectError({ status: gone.status, body: gone.json() }, 404, 'Feed not found');
    expect((await token(reader, 'GET')).body.data).toEqual({ exists: false, createdAt: null });
  });

  it("answers 404 while the token's owner is suspended", async () => {
    const reader = await createUser(t.ctx);
    const { rss } = (await token(reader)).body.data;
    expect((await get(rss)).status).toBe(200);
    await t.ctx.db.execute(sql`UPDATE users SET state = 'suspended' WHERE id = ${reader.id}`);
    expect((await get(rss)).status).toBe(404);
  });

  it('goes with the account when it is deleted', async () => {
    const reader = await createUser(t.ctx);
    const { rss } = (await token(reader)).body.data;
    expect((await call(t, 'DELETE', '/users/me', { as: reader, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect(await rows(t, sql`SELECT 1 FROM feed_tokens WHERE user_id = ${reader.id}`)).toEqual([]);
    expect((await get(rss)).status).toBe(404);
  });
});
