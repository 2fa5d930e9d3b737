import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_A_VIDEO } from '@glimpse/media';
import { queryRows } from '../../db/client.ts';
import { createWorker } from '../../jobs/create-worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { originalKey } from '../../storage/media-keys.ts';
import {
  bearer,
  bootPersistentApp,
  createTestApp,
  createUser,
  engine,
  freshDatabase,
  makeClip,
  memoryLog,
  postChunk,
  testMedia,
  TINY_PNG,
  type TestContext,
} from '../../../test/harness.ts';
import { signedUrl } from '../../../test/media.ts';

let t: TestContext;
let clip: Buffer;
let tmp: string;
beforeAll(async () => {
  t = await createTestApp();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-clip-'));
  clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { width: 640, height: 360, seconds: 4 }));
});
afterAll(async () => {
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const split = (file: Buffer, size: number) => Array.from({ length: Math.ceil(file.length / size) }, (_, i) => file.subarray(i * size, (i + 1) * size));
const videoCount = async (ctx = t.ctx) => (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM videos`))[0]!.n;
const mediaFiles = async (ctx = t.ctx) => {
  const root = (ctx.storage as LocalStorage).root;
  return existsSync(root) ? (await readdir(root, { recursive: true })).filter((f) => f.includes('.')) : [];
};
const uploadDir = (userId: string, uniqueId: string) => path.join(t.dataDir, 'uploads', userId, uniqueId);
const probeJson = (file: string) => testMedia.engine.probe(file) as Promise<{ streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { duration: string } }>;

describe('POST /videos (chunk upload): bad input', () => {
  it('is 401 without a login', async () => {
    const res = await postChunk(t.app, {}, { uniqueId: 'abc', chunkNumber: 0, totalChunks: 1 }, clip);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Please login to upload a video');
  });

  it('refuses bad chunk fields and upload ids with 400, storing nothing', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    const cases: [Record<string, string | number>, string][] = [
      [{ uniqueId: '../etc', chunkNumber: 0, totalChunks: 1 }, 'uniqueId must be 1-64 letters, digits, _ or -'],
      [{ uniqueId: 'a'.repeat(65), chunkNumber: 0, totalChunks: 1 }, 'uniqueId must be 1-64 letters, digits, _ or -'],
      [{ uniqueId: '', chunkNumber: 0, totalChunks: 1 }, 'uniqueId must be 1-64 letters, digits, _ or -'],
      [{ uniqueId: 'ok', chunkNumber: 'x', totalChunks: 1 }, 'chunkNumber must be a number'],
      [{ uniqueId: 'ok', chunkNumber: 0, totalChunks: 'many' }, 'totalChunks must be a number'],
      [{ uniqueId: 'ok', chunkNumber: -1, totalChunks: 1 }, 'chunkNumber must not be negative'],
      [{ uniqueId: 'ok', chunkNumber: 0, totalChunks: 0 }, 'totalChunks must be at least 1'],
      [{ uniqueId: 'ok', chunkNumber: 1, totalChunks: 1 }, 'chunkNumber must be less than totalChunks'],
    ];
    for (const [q, message] of cases) {
      const res = await postChunk(t.app, auth, q as never, clip.subarray(0, 100));
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const noQuery = await t.app.inject({ method: 'POST', url: '/api/v1/videos', headers: auth });
    expect(noQuery.statusCode).toBe(400);
    const empty = await postChunk(t.app, auth, { uniqueId: 'empty', chunkNumber: 0, totalChunks: 1 }, Buffer.alloc(0));
    expect(empty.json()).toMatchObject({ statusCode: 400, message: 'Video chunk is empty' });
    const notMultipart = await t.app.inject({ method: 'POST', url: '/api/v1/videos?uniqueId=a&chunkNumber=0&totalChunks=1', headers: auth, payload: {} });
    expect(notMultipart.statusCode).toBe(400);
    expect(existsSync(path.join(t.dataDir, 'uploads', user.id))).toBe(false);
  });

  it('answers 413 for a chunk over 3 MB', async () => {
    const auth = await bearer(t.ctx, await createUser(t.ctx));
    const res = await postChunk(t.app, auth, { uniqueId: 'big', chunkNumber: 0, totalChunks: 2 }, Buffer.alloc(3 * 1024 * 1024 + 1, 7));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File size should not exceed 3MB');
  });

  it('answers 413 over the video limit, by declared chunks and by bytes, and drops the session', async () => {
    const small = await createTestApp({ MAX_VIDEO_MB: '1' });
    try {
      const user = await createUser(small.ctx);
      const auth = await bearer(small.ctx, user);
      const declared = await postChunk(small.app, auth, { uniqueId: 'u1', chunkNumber: 0, totalChunks: 2 }, clip.subarray(0, 10));
      expect(declared.statusCode).toBe(413);
      expect(declared.json().message).toBe('File size should not exceed 1MB');
      const bytes = await postChunk(small.app, auth, { uniqueId: 'u2', chunkNumber: 0, totalChunks: 1 }, Buffer.alloc(1024 * 1024 + 1, 1));
      expect(bytes.statusCode).toBe(413);
      expect(bytes.json().message).toBe('File size should not exceed 1MB');
      expect((await small.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/u2', headers: auth })).statusCode).toBe(404);
      expect(existsSync(path.join(small.dataDir, 'uploads', user.id, 'u2'))).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('rate-limits uploads with RATE_LIMIT_UPLOAD', async () => {
    const limited = await createTestApp({ RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_UPLOAD: '2' });
    try {
      const auth = await bearer(limited.ctx, await createUser(limited.ctx));
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await postChunk(limited.app, auth, { uniqueId: 'rl', chunkNumber: 0, totalChunks: 2 }, clip.subarray(0, 10))).statusCode);
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('refuses a text file named .mp4 and a truncated mp4, leaving nothing behind', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    const before = await mediaFiles();
    const videosBefore = await videoCount();
    const text = Buffer.from('this is not a video, just text pretending to be one\n'.repeat(50));
    const truncated = clip.subarray(0, Math.floor(clip.length * 0.6));
    for (const [uniqueId, body] of [
      ['text', text],
      ['cut', truncated],
    ] as const) {
      const res = await postChunk(t.app, auth, { uniqueId, chunkNumber: 0, totalChunks: 1 }, body, { isLastChunk: 'true', title: 'x' });
      expect(res.statusCode, uniqueId).toBe(400);
      expect(res.json().message).toBe(NOT_A_VIDEO);
      expect(existsSync(uploadDir(user.id, uniqueId))).toBe(false);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/videos/uploads/${uniqueId}`, headers: auth })).statusCode).toBe(404);
    }
    expect(await mediaFiles()).toEqual(before);
    expect(await videoCount()).toBe(videosBefore);
  });

  it('checks the last chunk: title, thumbnail type, every chunk present, same totalChunks', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    const parts = split(clip, Math.ceil(clip.length / 3));
    const noTitle = await postChunk(t.app, auth, { uniqueId: 'meta', chunkNumber: 2, totalChunks: 3 }, parts[2]!, { isLastChunk: 'true' });
    expect(noTitle.json()).toMatchObject({ statusCode: 400, message: 'Title is required' });
    const gif = await postChunk(t.app, auth, { uniqueId: 'meta', chunkNumber: 2, totalChunks: 3 }, parts[2]!, { isLastChunk: 'true', title: 'T' }, {
      data: Buffer.from('GIF89a....'),
      filename: 'a.png',
    });
    expect(gif.json()).toMatchObject({ statusCode: 400, message: 'Thumbnail must be a png or jpeg image' });
    // Neither stored the chunk.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/meta', headers: auth })).statusCode).toBe(404);

    const missing = await postChunk(t.app, auth, { uniqueId: 'meta', chunkNumber: 2, totalChunks: 3 }, parts[2]!, { isLastChunk: 'true', title: 'T' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'Missing chunks: 0, 1', data: { missingChunks: [0, 1], receivedChunks: [2] } });
    const mismatch = await postChunk(t.app, auth, { uniqueId: 'meta', chunkNumber: 0, totalChunks: 4 }, parts[0]!);
    expect(mismatch.json()).toMatchObject({ statusCode: 400, message: 'totalChunks does not match this upload (3)' });
    expect(await videoCount()).toBeGreaterThanOrEqual(0);
  });
});

describe('GET /videos/uploads/{uniqueId}', () => {
  it('answers 401, 400, 404, and never shows another user the session', async () => {
    const a = await createUser(t.ctx);
    const b = await createUser(t.ctx);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/x1' })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/a.b', headers: await bearer(t.ctx, a) });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/none', headers: await bearer(t.ctx, a) })).statusCode).toBe(404);
    await postChunk(t.app, await bearer(t.ctx, a), { uniqueId: 'shared-id', chunkNumber: 1, totalChunks: 3 }, clip.subarray(0, 1000));
    // The same uniqueId from another user is another session.
    await postChunk(t.app, await bearer(t.ctx, b), { uniqueId: 'shared-id', chunkNumber: 0, totalChunks: 5 }, clip.subarray(0, 10));
    const mine = await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/shared-id', headers: await bearer(t.ctx, a) });
    expect(mine.json().data).toEqual({ uniqueId: 'shared-id', totalChunks: 3, receivedChunks: [1], receivedBytes: 1000 });
    const theirs = await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/shared-id', headers: await bearer(t.ctx, b) });
    expect(theirs.json().data).toMatchObject({ totalChunks: 5, receivedChunks: [0] });
  });
});

describe('upload -> transcode -> playback', () => {
  it('assembles shuffled and duplicated chunks, transcodes a playable ladder, publishes, deletes every file', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const parts = split(clip, 48 * 1024);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const last = parts.length - 1;
    // Shuffled (a fixed permutation), chunk 1 sent twice, the flagged last chunk at the end.
    const order = [...parts.keys()].filter((i) => i !== last).reverse();
    order.splice(1, 0, 1);
    for (const i of order) {
      const res = await postChunk(t.app, auth, { uniqueId: 'clip-1', chunkNumber: i, totalChunks: parts.length }, parts[i]!);
      expect(res.statusCode).toBe(200);
    }
    const status = (await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/clip-1', headers: auth })).json().data;
    expect(status.receivedChunks).toEqual([...parts.keys()].filter((i) => i !== last));
    const done = await postChunk(t.app, auth, { uniqueId: 'clip-1', chunkNumber: last, totalChunks: parts.length }, parts[last]!, {
      isLastChunk: 'true',
      title: '  Test pattern  ',
      description: 'A generated clip',
    });
    expect(done.statusCode).toBe(201);
    expect(done.json().message).toBe('Video uploaded successfully');
    const video = done.json().data;
    expect(video).toMatchObject({ title: 'Test pattern', isPublished: false, status: 'processing', progress: 0, width: 640, height: 360 });
    expect(video.duration).toBeCloseTo(4, 0);
    const id = video._id;
    expect(sha(await readFile((t.ctx.storage as LocalStorage).pathOf(originalKey(id))))).toBe(sha(clip));
    expect(existsSync(uploadDir(owner.id, 'clip-1'))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}` })).statusCode).toBe(404);

    const log = memoryLog();
    expect(await createWorker(t.ctx, log).drain()).toBe(1);
    const ready = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: auth })).json().data;
    expect(ready).toMatchObject({
      status: 'ready',
      progress: 1,
      // Not published yet: links only its owner gets, signed and expiring.
      videoFile: { url: expect.stringMatching(signedUrl(id, 'hls/master.m3u8')) },
      thumbnail: { url: expect.stringMatching(signedUrl(id, 'poster.jpg')) },
      storyboard: { url: expect.stringMatching(signedUrl(id, 'storyboard.vtt')) },
    });
    expect(log.lines.find((l) => l.msg === 'video ready')?.obj).toMatchObject({ videoId: id, jobId: expect.any(String) });

    const storage = t.ctx.storage as LocalStorage;
    const master = await readFile(storage.pathOf(`videos/${id}/hls/master.m3u8`), 'utf8');
    expect(master).toContain('RESOLUTION=426x240');
    expect(master).toContain('RESOLUTION=640x360');
    const probed = await probeJson(storage.pathOf(`videos/${id}/hls/master.m3u8`));
    const kinds = probed.streams.map((s) => (s.codec_type === 'video' ? `${s.width}x${s.height}` : s.codec_type));
    expect(kinds).toEqual(expect.arrayContaining(['426x240', '640x360', 'audio']));
    // One audio rendition, shared by every video rung.
    expect(master).toMatch(/#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_audio".*URI="audio\/index.m3u8"/);
    const variant = await readFile(storage.pathOf(`videos/${id}/hls/360p/index.m3u8`), 'utf8');
    expect(variant).toMatch(/#EXT-X-MAP:URI="init_\d+.mp4"/);
    expect(variant).toContain('#EXTINF:4.000000,');
    const joined = async (rendition: string) => {
      const files = (await readdir(storage.pathOf(`videos/${id}/hls/${rendition}`))).sort();
      const file = path.join(tmp, `${rendition}-seg0.mp4`);
      const init = files.find((f) => f.startsWith('init'))!;
      await writeFile(file, Buffer.concat([await readFile(storage.pathOf(`videos/${id}/hls/${rendition}/${init}`)), await readFile(storage.pathOf(`videos/${id}/hls/${rendition}/seg_00000.m4s`))]));
      return probeJson(file);
    };
    const seg = await joined('360p');
    expect(seg.streams.map((s) => s.codec_name)).toEqual(['h264']);
    expect(Number(seg.format.duration)).toBeCloseTo(4, 0);
    expect((await joined('audio')).streams.map((s) => s.codec_name)).toEqual(['aac']);
    const progressive = await probeJson(storage.pathOf(`videos/${id}/progressive.mp4`));
    expect(progressive.streams.map((s) => (s.codec_type === 'video' ? `${s.codec_name} ${s.width}x${s.height}` : s.codec_name))).toEqual(['h264 640x360', 'aac']);
    const vtt = await readFile(storage.pathOf(`videos/${id}/storyboard.vtt`), 'utf8');
    expect(vtt).toContain('storyboard.jpg#xywh=160,0,160,90');

    // Served with HLS types, never stored while private, and byte ranges.
    const m = await t.app.inject({ method: 'GET', url: ready.videoFile.url });
    expect(m.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(m.headers['cache-control']).toBe('private, no-store');
    const segmentUrl = ready.videoFile.url.replace('master.m3u8', '240p/seg_00000.m4s');
    const range = await t.app.inject({ method: 'GET', url: segmentUrl, headers: { range: 'bytes=0-99' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-type']).toBe('video/iso.segment');
    expect(range.rawPayload.length).toBe(100);
    expect((await t.app.inject({ method: 'GET', url: ready.storyboard.url })).headers['content-type']).toMatch(/^text\/vtt/);
    const original = await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}/original`, headers: auth });
    expect([original.headers['content-type'], sha(original.rawPayload)]).toEqual(['video/mp4', sha(clip)]);

    await t.app.inject({ method: 'PATCH', url: `/api/v1/videos/${id}/publish`, headers: auth, payload: { isPublished: true } });
    const home = (await t.app.inject({ method: 'GET', url: '/api/v1/videos?query=pattern' })).json().data.videos;
    expect(home.map((v: { _id: string }) => v._id)).toEqual([id]);
    expect((await t.app.inject({ method: 'GET', url: home[0].videoFile.url })).headers['cache-control']).toBe('public, max-age=31536000, immutable');

    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${id}`, headers: auth })).statusCode).toBe(200);
    expect(existsSync(storage.pathOf(`videos/${id}`))).toBe(false);
    expect(existsSync(storage.pathOf(`originals/${id}`))).toBe(false);
  });

  it('keeps an uploaded thumbnail instead of grabbing a poster; a source the engine cannot read fails at once, without retries', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const res = await postChunk(t.app, auth, { uniqueId: 'thumb', chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'With thumb' }, {
      data: TINY_PNG,
      filename: 'x.png',
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data._id;
    expect(res.json().data.thumbnail.url).toMatch(new RegExp(`^/media/videos/${id}/exp-\\d+-[\\w-]{43}/thumb-[\\w-]+\\.png$`));
    await createWorker(t.ctx, memoryLog()).drain();
    const ready = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: auth })).json().data;
    expect(ready.status).toBe('ready');
    expect(ready.thumbnail.url).toBe(res.json().data.thumbnail.url);
    expect(await t.ctx.storage.exists(`videos/${id}/poster.jpg`)).toBe(false);

    const broken = await postChunk(t.app, auth, { uniqueId: 'broken', chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'Broken' });
    const brokenId = broken.json().data._id;
    await t.ctx.storage.putBuffer(originalKey(brokenId), Buffer.from('corrupted after upload'));
    const log = memoryLog();
    await createWorker(t.ctx, log, { backoffMs: 0 }).drain();
    const failed = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${brokenId}`, headers: auth })).json().data;
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('This video could not be processed') });
    // Another attempt would fail the same way: one try, then failed.
    expect(log.lines.filter((l) => l.msg === 'job failed')).toHaveLength(1);
  });
});

describe('upload sessions over time', () => {
  it('sweeps sessions idle past the TTL, with their files', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    await postChunk(t.app, auth, { uniqueId: 'old', chunkNumber: 0, totalChunks: 2 }, clip.subarray(0, 100));
    await postChunk(t.app, auth, { uniqueId: 'fresh', chunkNumber: 0, totalChunks: 2 }, clip.subarray(0, 100));
    await t.ctx.db.execute(sql`UPDATE upload_sessions SET updated_at = now() - interval '25 hours' WHERE unique_id = 'old'`);
    await createWorker(t.ctx, memoryLog()).runOnce();
    expect(existsSync(uploadDir(user.id, 'old'))).toBe(false);
    expect(existsSync(uploadDir(user.id, 'fresh'))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/old', headers: auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/fresh', headers: auth })).statusCode).toBe(200);
  });

  // Two boots of a persistent database: slow on a busy 2-core machine.
  it('resumes after a server restart to a byte-identical file', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-restart-'));
    const fresh = engine === 'pg' ? await freshDatabase() : undefined;
    await fresh?.database.close();
    try {
      const parts = split(clip, 40 * 1024);
      let server = await bootPersistentApp(dataDir, fresh?.url);
      const user = await createUser(server.ctx);
      const send = async (i: number, fields: Record<string, string> = {}) =>
        postChunk(server.app, await bearer(server.ctx, user), { uniqueId: 'resume-me', chunkNumber: i, totalChunks: parts.length }, parts[i]!, fields);
      const half = Math.floor(parts.length / 2);
      for (let i = 0; i < half; i++) expect((await send(i)).statusCode).toBe(200);
      await server.close();

      server = await bootPersistentApp(dataDir, fresh?.url);
      const status = await server.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/resume-me', headers: await bearer(server.ctx, user) });
      const held: number[] = status.json().data.receivedChunks;
      expect(held).toEqual([...Array(half).keys()]);
      for (const i of [...parts.keys()].filter((n) => !held.includes(n))) {
        const last = i === parts.length - 1;
        const res = await send(i, last ? { isLastChunk: 'true', title: 'Resumed' } : {});
        expect(res.statusCode).toBe(last ? 201 : 200);
        if (last) {
          const source = (server.ctx.storage as LocalStorage).pathOf(originalKey(res.json().data._id));
          expect(sha(await readFile(source))).toBe(sha(clip));
        }
      }
      await server.close();
    } finally {
      await fresh?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
