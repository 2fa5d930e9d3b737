import { chmod } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestContext } from '../../../test/harness.ts';
import { keyOf, loadLikePlayer, ORIGINAL_BYTES, storeReadyVideo, type Getter } from '../../../test/media.ts';
import { originalKey } from '../../storage/media-keys.ts';
import { startNginx, type NginxFront } from '../../../test/nginx.ts';
import { freePort } from '../../../test/processes.ts';
import type { UserRow } from '../users/users.repository.ts';
import { PLAYLIST_PUBLIC_CACHE, PRIVATE_CACHE, PUBLIC_CACHE } from '../media-links/media-links.ts';

/**
 * The shipped docs/nginx.conf in front of Glimpse (MEDIA_ACCEL_REDIRECT=/_media_files/): Glimpse
 * decides every media request, nginx sends the file.
 */
describe('media behind the documented nginx front', () => {
  let t: TestContext;
  let nginx: NginxFront;
  let base: string;
  let owner: UserRow;
  let other: UserRow;
  beforeAll(async () => {
    t = await createTestApp({ MEDIA_ACCEL_REDIRECT: '/_media_files/' });
    // nginx's workers run as an unprivileged user: they need to read the media folder.
    await chmod(t.dataDir, 0o755);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    nginx = await startNginx({ root: t.dataDir, dataDir: t.dataDir, upstreamPort: (t.app.server.address() as { port: number }).port, httpPort, httpsPort });
    base = `http://127.0.0.1:${httpPort}`;
    owner = await createUser(t.ctx);
    other = await createUser(t.ctx);
  });
  afterAll(async () => {
    await nginx?.stop();
    await t.close();
  });

  const get: Getter = async (url, headers = {}) => {
    const res = await fetch(`${base}${url}`, { headers });
    return { url, status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
  };
  const video = async (id: string, as?: UserRow) => {
    const res = await get(`/api/v1/videos/${id}`, as ? await bearer(t.ctx, as) : {});
    return JSON.parse(res.body.toString()).data.video;
  };
  const stored = async (url: string) => (await t.ctx.storage.getStream(keyOf(url))).toArray().then((c) => Buffer.concat(c));

  it('sends a public video\'s files from disk with the types and immutable caching Glimpse chose, byte ranges included', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const fetched = await loadLikePlayer(get, await video(v.id));
    expect(fetched.map((f) => keyOf(f.url)).sort()).toEqual([...v.playable].sort());
    for (const f of fetched) {
      // The master playlist is written by Glimpse per request (captions' subtitle renditions), revalidated.
      const master = f.url.endsWith('/hls/master.m3u8');
      expect([f.url, f.status, f.headers['cache-control']]).toEqual([f.url, 200, master ? PLAYLIST_PUBLIC_CACHE : PUBLIC_CACHE]);
      expect(f.body.equals(await stored(f.url))).toBe(true);
      expect(f.headers['x-accel-redirect']).toBeUndefined();
      // nginx's own strong ETag (Glimpse's is weak, W/"..."): nginx sent the file, not Node.
      if (!master) expect(f.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    }
    const type = (suffix: string) => fetched.find((f) => f.url.endsWith(suffix))!.headers['content-type'];
    expect([type('master.m3u8'), type('.m4s'), type('.vtt'), type('.jpg')]).toEqual([
      'application/vnd.apple.mpegurl',
      'video/iso.segment',
      'text/vtt; charset=utf-8',
      'image/jpeg',
    ]);
    const segment = fetched.find((f) => f.url.endsWith('240p/seg_00000.m4s'))!.url;
    const range = await get(segment, { range: 'bytes=2-6' });
    expect([range.status, range.headers['content-range'], range.body.toString()]).toEqual([206, 'bytes 2-6/26', 'dia s']);
  });

  it('refuses a hidden video\'s files to others and to the internal path, serves them to the owner never to be stored', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { privacy: 'private' });
    for (const key of v.keys) {
      for (const url of [`/media/${key}`, `/_media_files/${key}`, `/media/videos/${v.id}/pub-${v.mediaToken}/${key.split('/').slice(2).join('/')}`]) {
        const res = await get(url, await bearer(t.ctx, other));
        expect([url, res.status]).toEqual([url, 404]);
        expect(res.body.includes(ORIGINAL_BYTES)).toBe(false);
      }
    }
    const fetched = await loadLikePlayer(get, await video(v.id, owner));
    expect(fetched.map((f) => keyOf(f.url)).sort()).toEqual([...v.playable].sort());
    for (const f of fetched) expect([f.url, f.status, f.headers['cache-control']]).toEqual([f.url, 200, PRIVATE_CACHE]);
  });

  it('stops serving a video\'s public URLs as soon as it is unpublished', async () => {
    const v = await storeReadyVideo(t.ctx, owner);
    const before = await loadLikePlayer(get, await video(v.id));
    expect(before.every((f) => f.status === 200)).toBe(true);
    const res = await fetch(`${base}/api/v1/videos/${v.id}/publish`, {
      method: 'PATCH',
      headers: { ...(await bearer(t.ctx, owner)), 'content-type': 'application/json' },
      body: JSON.stringify({ isPublished: false }),
    });
    expect(res.status).toBe(200);
    for (const f of before) expect((await get(f.url)).status, f.url).toBe(404);
  });

  it('downloads the original to its owner only, as an attachment never stored', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { title: 'Holiday' });
    const url = `/api/v1/videos/${v.id}/original`;
    expect((await get(url)).status).toBe(401);
    expect((await get(url, await bearer(t.ctx, other))).status).toBe(403);
    const mine = await get(url, await bearer(t.ctx, owner));
    expect(mine.status).toBe(200);
    expect(mine.body.equals(ORIGINAL_BYTES)).toBe(true);
    expect(mine.headers).toMatchObject({
      'content-type': 'video/mp4',
      'cache-control': PRIVATE_CACHE,
      'content-disposition': 'attachment; filename=Holiday.mp4',
    });
  });

  it('sends an original kept as its upload\'s chunks through Glimpse, byte ranges across the chunks included', async () => {
    const v = await storeReadyVideo(t.ctx, owner, { title: 'Chunked' });
    const chunks = [Buffer.alloc(40_000, 1), Buffer.alloc(40_000, 2), Buffer.from('end')];
    const keys = chunks.map((_, i) => `uploads/${owner.id}/nginx/${i}-n.part`);
    for (const [i, key] of keys.entries()) await t.ctx.storage.putBuffer(key, chunks[i]!);
    await t.ctx.storage.delete(originalKey(v.id));
    await t.ctx.storage.join(originalKey(v.id), keys, '');
    await t.ctx.storage.deletePrefix(`uploads/${owner.id}/nginx`);
    const auth = await bearer(t.ctx, owner);
    const whole = await get(`/api/v1/videos/${v.id}/original`, auth);
    expect([whole.status, whole.body.equals(Buffer.concat(chunks))]).toEqual([200, true]);
    const part = await get(`/api/v1/videos/${v.id}/original`, { ...auth, range: 'bytes=39990-40009' });
    expect([part.status, part.headers['content-range'], part.body.equals(Buffer.concat(chunks).subarray(39_990, 40_010))]).toEqual([206, 'bytes 39990-40009/80003', true]);
    // Glimpse's weak ETag: Node read the chunks; nginx had no single file to send.
    expect(part.headers.etag).toMatch(/^W\//);
  });
});
