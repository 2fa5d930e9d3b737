import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@glimpse/contract';
import { NOT_A_VIDEO } from '@glimpse/media';
import { queryRows } from '../../db/client.ts';
import { createWorker } from '../../worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { originalKey, uploadPrefix } from '../../storage/media-keys.ts';
import {
  bearer,
  bootPersistentApp,
  createTestApp,
  createUser,
  engine,
  expectApiError,
  freshDatabase,
  makeClip,
  memoryLog,
  postChunk,
  testMedia,
  TEST_PASSWORD,
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
const uploadDir = (userId: string, uniqueId: string) => path.join((t.ctx.storage as LocalStorage).root, uploadPrefix(userId, uniqueId));
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
      [{ uniqueId: 'ok', chunkNumber: 2, totalChunks: 1 }, 'chunkNumber must be from 0 to totalChunks-1, or from 1 to totalChunks'],
    ];
    for (const [q, message] of cases) {
      const res = await postChunk(t.app, auth, q as never, clip.subarray(0, 100));
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    for (const isLastChunk of ['yes', 'TRUE', '2', '']) {
      const res = await postChunk(t.app, auth, { uniqueId: 'ok', chunkNumber: 0, totalChunks: 1 }, clip.subarray(0, 100), { isLastChunk, title: 'T' });
      expect(res.json(), isLastChunk).toMatchObject({ statusCode: 400, message: 'isLastChunk must be true, false, 1 or 0' });
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

describe('chunk numbering: from 0 or from 1', () => {
  it('refuses a chunk outside the numbering the session already shows, storing nothing', async () => {
    const auth = await bearer(t.ctx, await createUser(t.ctx));
    const status = async (uniqueId: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/videos/uploads/${uniqueId}`, headers: auth })).json().data.receivedChunks;
    expect((await postChunk(t.app, auth, { uniqueId: 'zero', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 10))).statusCode).toBe(200);
    const three = await postChunk(t.app, auth, { uniqueId: 'zero', chunkNumber: 3, totalChunks: 3 }, clip.subarray(0, 10));
    expect(three.json()).toMatchObject({ statusCode: 400, message: 'This upload numbers its chunks from 0 to 2' });
    expect(await status('zero')).toEqual([0]);
    expect((await postChunk(t.app, auth, { uniqueId: 'one', chunkNumber: 3, totalChunks: 3 }, clip.subarray(0, 10))).statusCode).toBe(200);
    const zero = await postChunk(t.app, auth, { uniqueId: 'one', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 10));
    expect(zero.json()).toMatchObject({ statusCode: 400, message: 'This upload numbers its chunks from 1 to 3' });
    expect(await status('one')).toEqual([3]);
  });

  it('admits only one numbering when chunk 0 and chunk totalChunks race', async () => {
    const auth = await bearer(t.ctx, await createUser(t.ctx));
    const answers = await Promise.all(
      [0, 3, 0, 3].map((n, i) => postChunk(t.app, auth, { uniqueId: `race-${Math.floor(i / 2)}`, chunkNumber: n, totalChunks: 3 }, clip.subarray(0, 10))),
    );
    for (const pair of [answers.slice(0, 2), answers.slice(2)]) expect(pair.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    for (const uniqueId of ['race-0', 'race-1']) {
      const held = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/uploads/${uniqueId}`, headers: auth })).json().data.receivedChunks;
      expect([[0], [3]]).toContainEqual(held);
    }
  });

  it('assembles chunks numbered from 1, out of order and repeated, finished by isLastChunk=1; status answers in that numbering', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    const parts = split(clip, Math.ceil(clip.length / 4));
    const total = parts.length;
    const send = (n: number, fields: Record<string, string> = {}) =>
      postChunk(t.app, auth, { uniqueId: 'from-one', chunkNumber: n, totalChunks: total }, parts[n - 1]!, fields);
    expect(total).toBe(4);
    for (const n of [3, 1, 3]) expect((await send(n, { isLastChunk: '0' })).json()).toMatchObject({ statusCode: 200, message: 'Chunk received' });
    const early = await send(4, { isLastChunk: '1', title: 'Too early' });
    expect(early.json()).toMatchObject({ statusCode: 400, message: 'Missing chunks: 2', data: { missingChunks: [2] } });
    // Resume: ask what the server holds, send the rest, then the last chunk again.
    const status = await t.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/from-one', headers: auth });
    expect(status.json().data.receivedChunks).toEqual([1, 3, 4]);
    expect((await send(2)).statusCode).toBe(200);
    const done = await send(4, { isLastChunk: '1', title: 'Counted from one' });
    expect(done.statusCode).toBe(201);
    const video = done.json().data.video;
    expect(video).toMatchObject({ title: 'Counted from one', status: 'processing' });
    expect(sha(await buffer(await t.ctx.storage.getStream(originalKey(video._id))))).toBe(sha(clip));
    expect(existsSync(uploadDir(owner.id, 'from-one'))).toBe(false);
    // No transcode job left behind for the tests that drain the queue.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${video._id}`, headers: auth })).statusCode).toBe(200);
  });

  it("reports missing chunks in the client's numbering and treats isLastChunk=false / 0 as not last", async () => {
    const auth = await bearer(t.ctx, await createUser(t.ctx));
    const parts = split(clip, Math.ceil(clip.length / 3));
    const send = (n: number, isLastChunk: string) =>
      postChunk(t.app, auth, { uniqueId: 'gaps', chunkNumber: n, totalChunks: 3 }, parts[n - 1]!, { isLastChunk, title: 'Gaps' });
    expect((await send(3, 'false')).json()).toMatchObject({ statusCode: 200, data: { receivedChunks: [3] } });
    expect((await send(3, 'true')).json()).toMatchObject({ statusCode: 400, message: 'Missing chunks: 1, 2', data: { missingChunks: [1, 2] } });
    await send(1, '0');
    expect((await send(3, '1')).json()).toMatchObject({ statusCode: 400, message: 'Missing chunks: 2' });
    const done = await send(2, 'true');
    expect(done.statusCode).toBe(201);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${done.json().data.video._id}`, headers: auth })).statusCode).toBe(200);
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
    const video = done.json().data.video;
    expect(video).toMatchObject({ title: 'Test pattern', isPublished: false, status: 'processing', progress: 0, width: 640, height: 360 });
    expect(video.duration).toBeCloseTo(4, 0);
    const id = video._id;
    // Kept as its chunks, linked in order (ADR 025): nothing was copied.
    expect((await (t.ctx.storage as LocalStorage).parted(originalKey(id)))?.parts.length).toBe(parts.length);
    expect(sha(await buffer(await t.ctx.storage.getStream(originalKey(id))))).toBe(sha(clip));
    expect(existsSync(uploadDir(owner.id, 'clip-1'))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}` })).statusCode).toBe(404);

    const log = memoryLog();
    // The transcode, then the fan-out telling its owner the video is ready.
    expect(await createWorker(t.ctx, log).drain()).toBe(2);
    const told = (await t.app.inject({ method: 'GET', url: '/api/v1/notifications', headers: auth })).json().data.notifications;
    expect(told).toMatchObject([{ type: 'videoProcessed', subject: { videoId: id, videoTitle: 'Test pattern', outcome: 'ready' } }]);
    const ready = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: auth })).json().data.video;
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
    // The first pass's fast 240p was made again by the second pass at its own preset: the master
    // names the new one; the fast one stays for players that began on it, until its prune job.
    expect(master).toContain('\n240p/index.m3u8');
    expect(master).not.toContain('240p-fast');
    const fast = `videos/${id}/hls/240p-fast`;
    expect(existsSync(storage.pathOf(`${fast}/index.m3u8`))).toBe(true);
    const fastBytes = await storage.bytesUnder(fast);
    const mediaBytes = async () => (await queryRows<{ n: number }>(t.ctx.db, sql`SELECT media_bytes::float8 AS n FROM videos WHERE id = ${id}`))[0]!.n;
    const counted = await mediaBytes();
    const pruneJob = sql`queue = 'transcode-prune' AND payload->>'videoId' = ${id}`;
    const [prune] = await queryRows<{ due: number }>(t.ctx.db, sql`SELECT extract(epoch FROM run_at - now())::float8 AS due FROM jobs WHERE ${pruneJob}`);
    expect(prune!.due).toBeGreaterThan(6 * 3600);
    await t.ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE ${pruneJob}`);
    expect(await createWorker(t.ctx, log).drain()).toBe(1);
    expect(existsSync(storage.pathOf(fast))).toBe(false);
    expect(fastBytes).toBeGreaterThan(0);
    expect(await mediaBytes()).toBe(counted - fastBytes);
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
    // A byte range across the chunks' boundaries, as a download manager resumes.
    const from = 48 * 1024 - 10;
    const resumed = await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}/original`, headers: { ...auth, range: `bytes=${from}-${from + 99_999}` } });
    expect([resumed.statusCode, resumed.headers['content-range']]).toEqual([206, `bytes ${from}-${from + 99_999}/${clip.length}`]);
    expect(resumed.rawPayload.equals(clip.subarray(from, from + 100_000))).toBe(true);

    await t.app.inject({ method: 'PATCH', url: `/api/v1/videos/${id}/publish`, headers: auth, payload: { isPublished: true } });
    const home = (await t.app.inject({ method: 'GET', url: '/api/v1/videos?query=pattern' })).json().data.data;
    expect(home.map((v: { _id: string }) => v._id)).toEqual([id]);
    // The master playlist is built per request (caption renditions may change), so it is revalidated; segments never change.
    expect((await t.app.inject({ method: 'GET', url: home[0].videoFile.url })).headers['cache-control']).toBe('public, no-cache');
    expect((await t.app.inject({ method: 'GET', url: home[0].videoFile.url.replace('master.m3u8', '240p/seg_00000.m4s') })).headers['cache-control']).toBe('public, max-age=31536000, immutable');

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
    const id = res.json().data.video._id;
    expect(res.json().data.video.thumbnail.url).toMatch(new RegExp(`^/media/videos/${id}/exp-\\d+-[\\w-]{43}/thumb-[\\w-]+\\.png$`));
    await createWorker(t.ctx, memoryLog()).drain();
    const ready = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: auth })).json().data.video;
    expect(ready.status).toBe('ready');
    expect(ready.thumbnail.url).toBe(res.json().data.video.thumbnail.url);
    expect(await t.ctx.storage.exists(`videos/${id}/poster.jpg`)).toBe(false);

    const broken = await postChunk(t.app, auth, { uniqueId: 'broken', chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'Broken' });
    const brokenId = broken.json().data.video._id;
    await t.ctx.storage.putBuffer(originalKey(brokenId), Buffer.from('corrupted after upload'));
    const log = memoryLog();
    await createWorker(t.ctx, log, { backoffMs: 0 }).drain();
    const failed = (await t.app.inject({ method: 'GET', url: `/api/v1/videos/${brokenId}`, headers: auth })).json().data.video;
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('This video could not be processed') });
    // Another attempt would fail the same way: one try, then failed.
    expect(log.lines.filter((l) => l.msg === 'job failed')).toHaveLength(1);
  });
});

describe('per-account bounds on unfinished uploads', () => {
  let b: TestContext;
  beforeAll(async () => {
    b = await createTestApp({ MAX_OPEN_UPLOADS: '2', MAX_UPLOADS_HELD_MB: '1' });
  });
  afterAll(() => b.close());
  const KB300 = Buffer.alloc(300 * 1024, 7);
  const chunkOf = async (user: { id: string; userName: string }, uniqueId: string, chunkNumber: number, body = KB300) =>
    postChunk(b.app, await bearer(b.ctx, user), { uniqueId, chunkNumber, totalChunks: 10 }, body);
  const held = async (userId: string) =>
    (await queryRows<{ sessions: number; bytes: number }>(
      b.ctx.db,
      sql`SELECT (SELECT count(*) FROM upload_sessions WHERE user_id = ${userId})::int AS sessions,
                 (SELECT coalesce(sum(size), 0) FROM upload_chunks WHERE user_id = ${userId})::float8 AS bytes`,
    ))[0]!;

  it('refuses a third open upload with 429 and a clear message, storing nothing; its open uploads go on', async () => {
    const user = await createUser(b.ctx);
    expect((await chunkOf(user, 'one', 0, Buffer.from('a'))).statusCode).toBe(200);
    const two = { uniqueId: 'two', chunkNumber: 0, totalChunks: 1 };
    expect((await postChunk(b.app, await bearer(b.ctx, user), two, Buffer.from('b'))).statusCode).toBe(200);
    const refused = await chunkOf(user, 'three', 0, Buffer.from('c'));
    expectApiError(
      refused,
      429,
      'You have 2 unfinished uploads, the most allowed. Finish one, or wait until it expires 24 hours after its last chunk, before starting another.',
    );
    expect(refused.json().data).toEqual({ openUploads: 2, limit: 2 });
    expect(existsSync(path.join(b.dataDir, 'uploads', user.id, 'three'))).toBe(false);
    expect(await held(user.id)).toEqual({ sessions: 2, bytes: 2 });
    // The uploads already open take more chunks, and another account is not affected.
    expect((await chunkOf(user, 'one', 1, Buffer.from('a'))).statusCode).toBe(200);
    expect((await chunkOf(await createUser(b.ctx), 'three', 0, Buffer.from('c'))).statusCode).toBe(200);
    // An upload that ends (here refused as not a video) frees its place.
    const last = await postChunk(b.app, await bearer(b.ctx, user), two, Buffer.from('b'), {
      isLastChunk: 'true',
      title: 'Not a video',
    });
    expect(last.statusCode).toBe(400);
    expect((await chunkOf(user, 'three', 0, Buffer.from('c'))).statusCode).toBe(200);
  });

  it('refuses chunks beyond the bytes all of an account\'s open uploads may hold, counting a retried chunk once', async () => {
    const user = await createUser(b.ctx);
    expect((await chunkOf(user, 'big', 0)).statusCode).toBe(200);
    expect((await chunkOf(user, 'big', 1)).statusCode).toBe(200);
    expect((await chunkOf(user, 'other', 0)).statusCode).toBe(200);
    // A retried chunk replaces itself: 900 KB held either way.
    expect((await chunkOf(user, 'big', 1)).statusCode).toBe(200);
    const refused = await chunkOf(user, 'other', 1);
    expectApiError(
      refused,
      429,
      'Your unfinished uploads would hold more than 1 MB, the most allowed. Finish one, or wait until it expires 24 hours after its last chunk, before sending more.',
    );
    expect(refused.json().data).toEqual({ heldBytes: 3 * KB300.length, limitMb: 1 });
    expect(await held(user.id)).toEqual({ sessions: 2, bytes: 3 * KB300.length });
    expect(existsSync(path.join(b.dataDir, 'uploads', user.id, 'other', '1.part'))).toBe(false);
    // The refused upload keeps what it had: it can resume once room is made.
    const status = await b.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/other', headers: await bearer(b.ctx, user) });
    expect(status.json().data.receivedChunks).toEqual([0]);
  });

  it('cancels an unfinished upload on request: its chunks go and its place is free at once; never another account\'s, nor one being finished', async () => {
    const user = await createUser(b.ctx);
    const auth = await bearer(b.ctx, user);
    const cancel = async (uniqueId: string, headers: Record<string, string> = auth) => b.app.inject({ method: 'DELETE', url: `/api/v1/videos/uploads/${uniqueId}`, headers });
    expect((await chunkOf(user, 'keep', 0)).statusCode).toBe(200);
    expect((await chunkOf(user, 'drop', 0)).statusCode).toBe(200);
    expect((await chunkOf(user, 'drop', 1)).statusCode).toBe(200);
    expect((await chunkOf(user, 'next', 0)).statusCode).toBe(429);

    // Another account, or nobody, cannot cancel it.
    expectApiError(await cancel('drop', await bearer(b.ctx, await createUser(b.ctx))), 404, 'Upload not found');
    expectApiError(await cancel('drop', {}), 401, 'Please login to upload a video');
    expect(await held(user.id)).toEqual({ sessions: 2, bytes: 3 * KB300.length });

    const res = await cancel('drop');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Upload cancelled');
    expect(await held(user.id)).toEqual({ sessions: 1, bytes: KB300.length });
    expect(existsSync(path.join((b.ctx.storage as LocalStorage).root, uploadPrefix(user.id, 'drop')))).toBe(false);
    expect((await b.app.inject({ method: 'GET', url: '/api/v1/videos/uploads/drop', headers: auth })).statusCode).toBe(404);
    expectApiError(await cancel('drop'), 404, 'Upload not found');
    // Its place is free for another upload.
    expect((await chunkOf(user, 'next', 0)).statusCode).toBe(200);

    // A session whose last chunk is being assembled stays.
    await b.ctx.db.execute(sql`UPDATE upload_sessions SET finalizing_at = now() WHERE user_id = ${user.id} AND unique_id = 'keep'`);
    expectApiError(await cancel('keep'), 409, 'This upload is already being finished');
    expect((await held(user.id)).sessions).toBe(2);
  });

  it('refuses a chunk that arrives after its upload was cancelled, even before any chunk was held, until the sweep forgets the cancel', async () => {
    const user = await createUser(b.ctx);
    const auth = await bearer(b.ctx, user);
    const cancel = (uniqueId: string) => b.app.inject({ method: 'DELETE', url: `/api/v1/videos/uploads/${uniqueId}`, headers: auth });
    const dir = (uniqueId: string) => path.join((b.ctx.storage as LocalStorage).root, uploadPrefix(user.id, uniqueId));
    const refusal = 'This upload was cancelled: start it again under a new uniqueId';
    expect((await chunkOf(user, 'late', 0)).statusCode).toBe(200);
    expect((await cancel('late')).statusCode).toBe(200);
    // A chunk sent before the DELETE whose body arrives after it: refused, stored nowhere, no session.
    expectApiError(await chunkOf(user, 'late', 1), 409, refusal);
    expect(existsSync(dir('late')) ? await readdir(dir('late')) : []).toEqual([]);
    expect(await held(user.id)).toEqual({ sessions: 0, bytes: 0 });
    // Cancelled before its first chunk was admitted (the web app cancels as soon as it has sent one).
    expectApiError(await cancel('early'), 404, 'Upload not found');
    expectApiError(await chunkOf(user, 'early', 0), 409, refusal);
    expect(await held(user.id)).toEqual({ sessions: 0, bytes: 0 });
    // Other uploads, and other accounts' uploads of the same id, are not affected.
    expect((await chunkOf(user, 'fresh', 0)).statusCode).toBe(200);
    expect((await chunkOf(await createUser(b.ctx), 'late', 0)).statusCode).toBe(200);
    // An account keeps its newest 100 cancels, whatever it sends.
    for (let i = 0; i < 105; i += 1) await cancel(`gone-${i}`);
    const kept = async () =>
      (await queryRows<{ n: number }>(b.ctx.db, sql`SELECT count(*)::int AS n FROM upload_cancels WHERE user_id = ${user.id}`))[0]!.n;
    expect(await kept()).toBe(100);
    // The sweep forgets cancels older than the session TTL: the id may then be used again.
    await b.ctx.db.execute(sql`UPDATE upload_cancels SET cancelled_at = now() - interval '25 hours' WHERE user_id = ${user.id}`);
    await createWorker(b.ctx, memoryLog()).runOnce();
    expect(await kept()).toBe(0);
    expect((await chunkOf(user, 'late', 0)).statusCode).toBe(200);
  });

  it('holds under parallel requests: of five new uploads sent at once, two are opened', async () => {
    const user = await createUser(b.ctx);
    const auth = await bearer(b.ctx, user);
    const answers = await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => postChunk(b.app, auth, { uniqueId: id, chunkNumber: 0, totalChunks: 2 }, Buffer.from(id))),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
    expect((await held(user.id)).sessions).toBe(2);
  });
});

describe('POST /videos: the account is read by the chunk\'s admission (ADR 025)', () => {
  const sessionsOf = async (userId: string) =>
    (await queryRows<{ unique_id: string; chunks: number }>(
      t.ctx.db,
      sql`SELECT s.unique_id, (SELECT count(*)::int FROM upload_chunks c WHERE c.user_id = s.user_id AND c.unique_id = s.unique_id) AS chunks
          FROM upload_sessions s WHERE s.user_id = ${userId}`,
    )).map((r) => [r.unique_id, r.chunks]);

  it('refuses a suspended account every chunk with the 401 other routes give, recording and keeping nothing', async () => {
    const user = await createUser(t.ctx, { state: 'suspended', stateReason: 'Spam' });
    const auth = await bearer(t.ctx, user);
    // A middle chunk (account read in the admission), an empty one (refused before it), a possible last one (read first).
    for (const [chunkNumber, chunk] of [[0, clip.subarray(0, 100)], [1, Buffer.alloc(0)], [2, clip.subarray(0, 100)]] as const) {
      expectApiError(await postChunk(t.app, auth, { uniqueId: 'sus', chunkNumber, totalChunks: 3 }, chunk), 401, messages.accountSuspended);
    }
    expect(await sessionsOf(user.id)).toEqual([]);
    // The refused middle chunk's object was written, then removed.
    expect(existsSync(uploadDir(user.id, 'sus')) ? await readdir(uploadDir(user.id, 'sus')) : []).toEqual([]);
    // A suspension whose end has passed is over: the chunk is admitted.
    const past = await createUser(t.ctx, { state: 'suspended', suspendedUntil: new Date(Date.now() - 60_000) });
    expect((await postChunk(t.app, await bearer(t.ctx, past), { uniqueId: 'back', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 100))).statusCode).toBe(200);
    expect(await sessionsOf(past.id)).toEqual([['back', 1]]);
  });

  it('refuses the next chunk once the account is suspended or removed mid-upload, keeping what was admitted', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    expect((await postChunk(t.app, auth, { uniqueId: 'mid', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 100))).statusCode).toBe(200);
    await t.ctx.db.execute(sql`UPDATE users SET state = 'suspended' WHERE id = ${user.id}`);
    expectApiError(await postChunk(t.app, auth, { uniqueId: 'mid', chunkNumber: 1, totalChunks: 3 }, clip.subarray(0, 100)), 401, messages.accountSuspended);
    expect(await sessionsOf(user.id)).toEqual([['mid', 1]]);
    // A token of an account that is gone names nobody.
    const gone = await bearer(t.ctx, { id: '00000000-0000-4000-8000-000000000000', userName: 'gone' });
    expectApiError(await postChunk(t.app, gone, { uniqueId: 'gone', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 100)), 401, 'Please login to upload a video');
  });

  it("refuses a token whose login session ended (logout), at its next chunk, with the session's 401", async () => {
    const user = await createUser(t.ctx);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${login.json().data.accessToken as string}` };
    expect((await postChunk(t.app, auth, { uniqueId: 'sid', chunkNumber: 0, totalChunks: 3 }, clip.subarray(0, 100))).statusCode).toBe(200);
    await t.ctx.db.execute(sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${user.id}`);
    expectApiError(await postChunk(t.app, auth, { uniqueId: 'sid', chunkNumber: 1, totalChunks: 3 }, clip.subarray(0, 100)), 401, messages.sessionEnded);
    expectApiError(await postChunk(t.app, auth, { uniqueId: 'sid', chunkNumber: 2, totalChunks: 3 }, clip.subarray(0, 100)), 401, messages.sessionEnded);
    expect(await sessionsOf(user.id)).toEqual([['sid', 1]]);
    expect(await readdir(uploadDir(user.id, 'sid'))).toHaveLength(1);
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
          expect(sha(await buffer(await server.ctx.storage.getStream(originalKey(res.json().data.video._id))))).toBe(sha(clip));
        }
      }
      await server.close();
    } finally {
      await fresh?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
