import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { pgliteExtensions, queryRows, wrapPglite } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { newId } from '../../lib/ids.ts';
import { originalKey } from '../../storage/media-keys.ts';
import { applyStorageMoves } from '../../storage/storage-moves.ts';
import { bearer, createTestApp, createUser, type TestContext } from '../../../test/harness.ts';
import { injectGetter, keyOf, loadLikePlayer, ORIGINAL_BYTES, storeReadyVideo, type Fetched, type Getter, type StoredVideo } from '../../../test/media.ts';
import { startS3, type TestS3 } from '../../../test/s3.ts';
import type { UserRow } from '../users/users.repository.ts';
import { MediaSigner, PLAYLIST_PUBLIC_CACHE, PRIVATE_CACHE, PUBLIC_CACHE } from '../media-links/media-links.ts';

/** The master playlist changes with the captions (written per request): revalidated, every other public file immutable. */
const publicCacheOf = (url: string) => (url.endsWith('/hls/master.m3u8') ? PLAYLIST_PUBLIC_CACHE : PUBLIC_CACHE);

const drivers = ['local disk', 'S3'] as const;

describe.each(drivers)('media access on %s', (driver) => {
  let t: TestContext;
  let s3: TestS3 | undefined;
  let ctx: AppContext;
  let app: FastifyInstance;
  let get: Getter;
  let owner: UserRow;
  let other: UserRow;
  beforeAll(async () => {
    t = await createTestApp();
    ctx = t.ctx;
    app = t.app;
    if (driver === 'S3') {
      s3 = await startS3();
      ctx = { ...t.ctx, storage: s3.storage };
      app = await buildApp(ctx);
    }
    get = injectGetter(app);
    owner = await createUser(ctx);
    other = await createUser(ctx);
  });
  afterAll(async () => {
    if (s3) {
      await app.close();
      await s3.close();
    }
    await t.close();
  });

  const api = async (method: 'GET' | 'PATCH', url: string, as?: UserRow, payload?: object) => {
    const res = await app.inject({ method, url: `/api/v1${url}`, headers: as ? await bearer(ctx, as) : {}, payload });
    return res;
  };
  const videoAs = async (id: string, as?: UserRow) => (await api('GET', `/videos/${id}`, as)).json().data.video;
  const refused = (f: Fetched) => f.status >= 400 && !f.body.includes(Buffer.from('segment')) && !f.body.includes(ORIGINAL_BYTES);

  /** Every URL shape someone without the owner's links could try for each stored file of `v`. */
  async function attackUrls(v: StoredVideo): Promise<string[]> {
    const theirs = await storeReadyVideo(ctx, other, { privacy: 'private' });
    const theirSigned = (await videoAs(theirs.id, other)).videoFile.url.split('/')[4];
    const publicOne = await storeReadyVideo(ctx, other);
    const forged = `exp-${Math.floor(Date.now() / 1000) + 3600}-${'A'.repeat(43)}`;
    const urls = [`/media/originals/${v.id}/source.mp4`];
    for (const key of v.keys) {
      const rest = key.split('/').slice(2).join('/');
      urls.push(
        `/media/${key}`,
        ...[`pub-${v.mediaToken}`, `pub-${publicOne.mediaToken}`, theirSigned, forged].map((c) => `/media/videos/${v.id}/${c}/${rest}`),
      );
    }
    return urls;
  }

  it.each([
    ['unpublished', { privacy: 'private' as const }],
    ['published but still processing', { status: 'processing' as const }],
    ['published but failed', { status: 'failed' as const }],
  ])('refuses every file of an %s video to visitors and other users, whatever URL they try', async (_name, over) => {
    const v = await storeReadyVideo(ctx, owner, over);
    expect((await api('GET', `/videos/${v.id}`)).statusCode).toBe(404);
    expect((await api('GET', `/videos/${v.id}`, other)).statusCode).toBe(404);
    const urls = await attackUrls(v);
    for (const headers of [{}, await bearer(ctx, other)]) {
      for (const url of urls) {
        const res = await get(url, headers);
        expect(refused(res), `${url} answered ${res.status}`).toBe(true);
      }
    }
    // The owner's own view still has every file.
    const mine = await loadLikePlayer(get, await videoAs(v.id, owner));
    expect(mine.every((f) => f.status === 200)).toBe(true);
  });

  it("gives the owner every file of their hidden video through the API's signed links, never to be stored", async () => {
    const v = await storeReadyVideo(ctx, owner, { privacy: 'private' });
    const video = await videoAs(v.id, owner);
    expect(video.videoFile.url).toMatch(new RegExp(`^/media/videos/${v.id}/exp-\\d+-[\\w-]{43}/hls/master\\.m3u8$`));
    const fetched = await loadLikePlayer(get, video);
    expect(fetched.map((f) => [f.url, f.status]).filter(([, s]) => s !== 200)).toEqual([]);
    // master, both playlists, their inits and segments, storyboard, sprite, poster: each file once.
    expect(fetched.map((f) => keyOf(f.url)).sort()).toEqual([...v.playable].sort());
    for (const f of fetched) expect(f.headers['cache-control'], f.url).toBe(PRIVATE_CACHE);
    expect(fetched.find((f) => f.url.endsWith('/master.m3u8'))!.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(fetched.find((f) => f.url.endsWith('.m4s'))!.headers['content-type']).toBe('video/iso.segment');

    // The dashboard and the channel page show the owner the same signed links.
    const dashboard = (await api('GET', '/dashboard/channel-videos', owner)).json().data.videos;
    expect(dashboard.find((d: { _id: string }) => d._id === v.id).thumbnail.url).toBe(video.thumbnail.url);
  });

  it('serves a public video to anyone with immutable caching, and its original at no URL at all', async () => {
    const v = await storeReadyVideo(ctx, owner);
    const video = await videoAs(v.id);
    expect(video.videoFile.url).toBe(`/media/videos/${v.id}/pub-${v.mediaToken}/hls/master.m3u8`);
    const fetched = await loadLikePlayer(get, video);
    expect(fetched.map((f) => [f.url, f.status]).filter(([, s]) => s !== 200)).toEqual([]);
    expect(fetched.map((f) => keyOf(f.url)).sort()).toEqual([...v.playable].sort());
    for (const f of fetched) {
      expect(f.headers['cache-control'], f.url).toBe(publicCacheOf(f.url));
      expect(f.body.includes(ORIGINAL_BYTES)).toBe(false);
    }
    const pub = `/media/videos/${v.id}/pub-${v.mediaToken}`;
    for (const url of [
      `/media/${originalKey(v.id)}`,
      `/media/videos/${v.id}/source.mp4`,
      `${pub}/source.mp4`,
      `${pub}/../../../originals/${v.id}/source.mp4`,
      `${pub}/%2e%2e/%2e%2e/%2e%2e/originals/${v.id}/source.mp4`,
      `${pub}/..%2f..%2f..%2foriginals%2f${v.id}%2fsource.mp4`,
      `/media/users/..%2f${originalKey(v.id)}`,
    ]) {
      expect(refused(await get(url)), url).toBe(true);
      expect(refused(await get(url, await bearer(ctx, owner))), url).toBe(true);
    }
    expect((await api('GET', `/videos/${v.id}/original`)).statusCode).toBe(401);
    expect((await api('GET', `/videos/${v.id}/original`, other)).statusCode).toBe(403);
  });

  it('stops answering the old URLs once a public video is unpublished, and gives new ones when it is published again', async () => {
    const v = await storeReadyVideo(ctx, owner);
    const before = await loadLikePlayer(get, await videoAs(v.id));
    expect(before.every((f) => f.status === 200)).toBe(true);

    expect((await api('PATCH', `/videos/${v.id}/publish`, owner, { isPublished: false })).statusCode).toBe(200);
    for (const f of before) expect((await get(f.url)).status, f.url).toBe(404);
    const owners = await loadLikePlayer(get, await videoAs(v.id, owner));
    expect(owners.every((f) => f.status === 200 && f.headers['cache-control'] === PRIVATE_CACHE)).toBe(true);

    expect((await api('PATCH', `/videos/${v.id}/publish`, owner, { isPublished: true })).statusCode).toBe(200);
    const again = await loadLikePlayer(get, await videoAs(v.id));
    expect(again.every((f) => f.status === 200 && f.headers['cache-control'] === publicCacheOf(f.url))).toBe(true);
    expect(again.map((f) => f.url).filter((u) => before.some((b) => b.url === u))).toEqual([]);
    for (const f of before) expect((await get(f.url)).status, f.url).toBe(404);
    // Publishing what is already public keeps its URLs.
    await api('PATCH', `/videos/${v.id}/publish`, owner, { isPublished: true });
    expect((await videoAs(v.id)).videoFile.url).toBe(again[0]!.url);
  });

  it('answers any path below /media/ without a 5xx, and never with an original', async () => {
    const hidden = await storeReadyVideo(ctx, owner, { privacy: 'private' });
    const pub = await storeReadyVideo(ctx, owner);
    const signer = new MediaSigner(ctx.config.jwtSecret, ctx.config.mediaUrlTtlSeconds);
    const segment = fc.oneof(
      fc.constantFrom('videos', 'originals', 'users', 'tweets', 'source.mp4', 'hls', 'master.m3u8', 'v0', '..', '.', '', '%2e%2e', '..%2f', '%00', 'pub-', 'exp-1-x'),
      fc.constantFrom(hidden.id, pub.id, `pub-${pub.mediaToken}`, `pub-${hidden.mediaToken}`, signer.sign(pub.id), signer.sign(hidden.id)),
      fc.string({ maxLength: 30 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 7 }), async (parts) => {
        const res = await get(`/media/${parts.join('/')}`);
        expect(res.status).toBeLessThan(500);
        expect(res.body.includes(ORIGINAL_BYTES)).toBe(false);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  it('answers byte ranges and HEAD on media files', async () => {
    const v = await storeReadyVideo(ctx, owner);
    const segment = `/media/videos/${v.id}/pub-${v.mediaToken}/hls/240p/seg_00000.m4s`;
    const range = await get(segment, { range: 'bytes=2-6' });
    expect([range.status, range.headers['content-range'], range.body.toString()]).toEqual([206, 'bytes 2-6/26', 'dia s']);
    const head = await app.inject({ method: 'HEAD', url: segment });
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([200, '26', '']);
    expect((await get(segment, { range: 'bytes=100-200' })).status).toBe(416);
  });

  it('refuses signed links that expired, were altered or were signed for another video', async () => {
    const v = await storeReadyVideo(ctx, owner, { privacy: 'private' });
    const mine = await storeReadyVideo(ctx, other, { privacy: 'private' });
    const signer = new MediaSigner(ctx.config.jwtSecret, ctx.config.mediaUrlTtlSeconds);
    const at = (credential: string, id = v.id) => `/media/videos/${id}/${credential}/hls/master.m3u8`;
    expect((await get(at(signer.sign(v.id)))).status).toBe(200);
    const expired = signer.sign(v.id, Date.now() - (ctx.config.mediaUrlTtlSeconds + 3600) * 1000);
    expect((await get(at(expired))).status).toBe(403);
    const good = signer.sign(v.id);
    const flipped = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
    expect((await get(at(flipped))).status).toBe(403);
    const later = good.replace(/^exp-(\d+)/, (_m, e: string) => `exp-${Number(e) + 86_400}`);
    expect((await get(at(later))).status).toBe(403);
    expect((await get(at(signer.sign(mine.id)))).status).toBe(403);
    expect((await get(at(signer.sign(v.id), mine.id))).status).toBe(403);
  });

  describe('GET /api/v1/videos/{id}/original', () => {
    it('answers 401 without a login, 400 for a malformed id, 404 for an unknown video and 403 for anyone but the owner', async () => {
      const v = await storeReadyVideo(ctx, owner, { privacy: 'private' });
      const anon = await api('GET', `/videos/${v.id}/original`);
      expect([anon.statusCode, anon.json().message]).toEqual([401, 'Please login to manage your videos']);
      expect((await api('GET', '/videos/not-an-id/original', owner)).statusCode).toBe(400);
      expect((await api('GET', `/videos/${newId()}/original`, owner)).json()).toMatchObject({ statusCode: 404, message: 'Video not found', success: false });
      const theirs = await api('GET', `/videos/${v.id}/original`, other);
      expect(theirs.json()).toMatchObject({ statusCode: 403, message: 'Only the owner can download the original of a video', success: false });
      expect(theirs.rawPayload.includes(ORIGINAL_BYTES)).toBe(false);
    });

    it('downloads the original to its owner as an attachment, never cached, ranges included', async () => {
      const v = await storeReadyVideo(ctx, owner, { privacy: 'private', title: 'Été à Paris "final"' });
      const res = await api('GET', `/videos/${v.id}/original`, owner);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(ORIGINAL_BYTES)).toBe(true);
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['cache-control']).toBe(PRIVATE_CACHE);
      // The title names the file: UTF-8 for browsers (RFC 6266), an ASCII stand-in for older clients.
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="?t? ? Paris \\"final\\".mp4"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris%20%22final%22.mp4`,
      );
      const ranged = await app.inject({ method: 'GET', url: `/api/v1/videos/${v.id}/original`, headers: { ...(await bearer(ctx, owner)), range: 'bytes=0-3' } });
      expect([ranged.statusCode, ranged.body]).toEqual([206, '....']);
    });

    it('answers 404 when the original is no longer stored', async () => {
      const v = await storeReadyVideo(ctx, owner, { sourceKey: null });
      expect((await api('GET', `/videos/${v.id}/original`, owner)).json()).toMatchObject({
        statusCode: 404,
        message: 'The original of this video is no longer stored',
      });
    });
  });

  it('moves the originals stored before ADR 011 out of the public folder when an older instance is upgraded', async () => {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    const database = wrapPglite(client);
    try {
      await migrate(database, { before: '0630' });
      const userId = newId();
      const ids = [newId(), newId()];
      await database.db.execute(
        sql`INSERT INTO users (id, full_name, user_name, email, password_hash) VALUES (${userId}, 'Old Timer', ${`old${userId.slice(-6)}`}, ${`old${userId.slice(-6)}@example.com`}, 'x')`,
      );
      for (const id of ids) {
        await database.db.execute(
          sql`INSERT INTO videos (id, owner_id, title, status, is_published, source_key) VALUES (${id}, ${userId}, 'Old upload', 'ready', true, ${`videos/${id}/source.mp4`})`,
        );
      }
      // The first one's file is there; the second one's was lost before the upgrade.
      await ctx.storage.putBuffer(`videos/${ids[0]}/source.mp4`, ORIGINAL_BYTES);

      await migrate(database);
      expect(await applyStorageMoves(database.db, ctx.storage)).toBe(1);
      const rows = await queryRows<{ id: string; source_key: string; media_token: string }>(
        database.db,
        sql`SELECT id, source_key, media_token FROM videos ORDER BY id`,
      );
      expect(rows.map((r) => r.source_key)).toEqual(ids.map((id) => originalKey(id)));
      expect(rows[0]!.media_token).toMatch(/^[0-9a-f]{32}$/);
      expect(rows[0]!.media_token).not.toBe(rows[1]!.media_token);
      expect(await ctx.storage.exists(`videos/${ids[0]}/source.mp4`)).toBe(false);
      expect(await ctx.storage.exists(originalKey(ids[0]!))).toBe(true);
      expect(await queryRows(database.db, sql`SELECT * FROM storage_moves`)).toEqual([]);
      // Every process runs it at boot: once done, there is nothing left to do.
      expect(await applyStorageMoves(database.db, ctx.storage)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
