import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createStorage } from '../boot.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { createWorker } from '../worker.ts';
import { bearer, createTestApp, createUser, makeClip, memoryLog, postChunk, TEST_ENV, type TestContext } from '../../test/harness.ts';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { LocalStorage } from './local-storage.ts';
import { originalKey } from './media-keys.ts';
import { S3Storage } from './s3-storage.ts';

let s3: TestS3;
let dir: string;
let endpoint: string;
let storage: S3Storage;
beforeAll(async () => {
  s3 = await startS3();
  ({ dir, endpoint, storage } = s3);
});
afterAll(() => s3.close());

describe('S3Storage against an S3-protocol server', () => {
  it('stores, reads, answers exists and deletes single keys', async () => {
    const file = path.join(dir, 'a.vtt');
    await writeFile(file, 'WEBVTT\n');
    await storage.putFile('videos/v1/storyboard.vtt', file);
    await storage.putBuffer('videos/v1/hls/master.m3u8', Buffer.from('#EXTM3U\n'));
    expect(await storage.exists('videos/v1/storyboard.vtt')).toBe(true);
    expect(await storage.exists('videos/v1/nope.vtt')).toBe(false);
    expect(await text(await storage.getStream('videos/v1/hls/master.m3u8'))).toBe('#EXTM3U\n');
    // Public URLs carry the HLS content types and long cache headers set at upload.
    const res = await fetch(storage.url('videos/v1/hls/master.m3u8'));
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const ranged = await fetch(storage.url('videos/v1/storyboard.vtt'), { headers: { range: 'bytes=0-4' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('WEBVT');
    await storage.delete('videos/v1/storyboard.vtt');
    expect(await storage.exists('videos/v1/storyboard.vtt')).toBe(false);
  });

  it('answers reads as HTTP: whole, byte ranges, HEAD, ETag revalidation, missing keys and bad ranges', async () => {
    await storage.putBuffer('videos/v3/hls/v0/seg_00000.m4s', Buffer.from('0123456789'));
    const get = (headers: Record<string, string> = {}, method = 'GET') => storage.answer('videos/v3/hls/v0/seg_00000.m4s', { method, headers });
    const whole = (await get())!;
    expect([whole.statusCode, whole.headers['Content-Length'], whole.headers['Accept-Ranges']]).toEqual([200, 10, 'bytes']);
    expect(await text(whole.body!)).toBe('0123456789');
    const part = (await get({ range: 'bytes=2-5' }))!;
    expect([part.statusCode, part.headers['Content-Range'], part.headers['Content-Length']]).toEqual([206, 'bytes 2-5/10', 4]);
    expect(await text(part.body!)).toBe('2345');
    const head = (await get({}, 'HEAD'))!;
    expect([head.statusCode, head.headers['Content-Length'], await text(head.body!)]).toEqual([200, 10, '']);
    expect((await get({ 'if-none-match': String(whole.headers.ETag) }))!.statusCode).toBe(304);
    expect((await get({ range: 'bytes=50-60' }))!.statusCode).toBe(416);
    expect(await storage.answer('videos/v3/nope.m4s', { method: 'GET', headers: {} })).toBeNull();
  });

  it('moves a key: the new key holds the bytes, the old one is gone', async () => {
    await storage.putBuffer('videos/v4/source.mp4', Buffer.from('original'));
    await storage.move('videos/v4/source.mp4', 'originals/v4/source.mp4');
    expect(await storage.exists('videos/v4/source.mp4')).toBe(false);
    expect(await text(await storage.getStream('originals/v4/source.mp4'))).toBe('original');
  });

  it('deletes a whole prefix and nothing beside it', async () => {
    for (let i = 0; i < 5; i++) await storage.putBuffer(`videos/v2/hls/v0/seg_${i}.m4s`, Buffer.from([i]));
    await storage.putBuffer('videos/v22/keep.jpg', Buffer.from('x'));
    // bytesUnder measures a folder or a single key, and nothing beside it either.
    expect(await storage.bytesUnder('videos/v2')).toBe(5);
    expect(await storage.bytesUnder('videos/v2/hls/v0/seg_1.m4s')).toBe(1);
    expect(await storage.bytesUnder('videos/none')).toBe(0);
    await storage.deletePrefix('videos/v2');
    expect(await storage.exists('videos/v2/hls/v0/seg_0.m4s')).toBe(false);
    expect(await storage.exists('videos/v22/keep.jpg')).toBe(true);
  });

  it('is the driver boot picks when S3_BUCKET is set', () => {
    const base = { ...TEST_ENV, DATA_DIR: dir };
    expect(createStorage(loadConfig(base))).toBeInstanceOf(LocalStorage);
    const s3 = createStorage(loadConfig({ ...base, S3_BUCKET: 'media', S3_ENDPOINT: endpoint }));
    expect(s3).toBeInstanceOf(S3Storage);
    (s3 as S3Storage).close();
  });

  it('builds URLs from the public base or the endpoint, and refuses unsafe keys', () => {
    expect(storage.url('videos/a b/x.jpg')).toBe(`${endpoint}/media/videos/a%20b/x.jpg`);
    const cdn = new S3Storage({ bucket: 'media', region: 'us-east-1', forcePathStyle: true, publicUrl: 'https://cdn.example.com/' });
    expect(cdn.url('videos/x.jpg')).toBe('https://cdn.example.com/videos/x.jpg');
    cdn.close();
    expect(() => storage.url('../etc/passwd')).toThrow('Unsafe storage key');
  });

  describe('the upload and transcode pipeline on S3', () => {
    let t: TestContext;
    let ctx: AppContext;
    let app: Awaited<ReturnType<typeof buildApp>>;
    beforeAll(async () => {
      t = await createTestApp();
      ctx = { ...t.ctx, storage };
      app = await buildApp(ctx);
    });
    afterAll(async () => {
      await app.close();
      await t.close();
    });

    it('uploads, transcodes from the bucket and deletes every object', async () => {
      const clip = await readFile(await makeClip(path.join(dir, 'clip.mp4'), { seconds: 2, audio: false }));
      const owner = await createUser(ctx);
      const auth = await bearer(ctx, owner);
      const res = await postChunk(app, auth, { uniqueId: 's3', chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'On S3' });
      expect(res.statusCode).toBe(201);
      const id = res.json().data.video._id;
      await createWorker(ctx, memoryLog()).drain();
      const video = (await app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: auth })).json().data.video;
      expect(video.status).toBe('ready');
      // Not published yet: the owner's link is signed, and the app serves it from the bucket.
      expect(video.videoFile.url).toMatch(new RegExp(`^/media/videos/${id}/exp-\\d+-[\\w-]+/hls/master\\.m3u8$`));
      const master = await app.inject({ method: 'GET', url: video.videoFile.url });
      expect(master.body).toContain('RESOLUTION=320x240');
      expect(await storage.exists(originalKey(id))).toBe(true);
      // A silent source: video-only renditions.
      expect(await text(await storage.getStream(`videos/${id}/hls/master.m3u8`))).not.toContain('mp4a');
      expect(await storage.exists(`videos/${id}/hls/240p/seg_00000.m4s`)).toBe(true);
      await app.inject({ method: 'DELETE', url: `/api/v1/videos/${id}`, headers: auth });
      for (const key of ['poster.jpg', 'storyboard.vtt', 'hls/master.m3u8', 'hls/240p/seg_00000.m4s', 'progressive.mp4']) {
        expect(await storage.exists(`videos/${id}/${key}`), key).toBe(false);
      }
      expect(await storage.exists(originalKey(id))).toBe(false);
    });
  });
});
