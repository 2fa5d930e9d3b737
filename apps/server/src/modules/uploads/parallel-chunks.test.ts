import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import { NOT_A_VIDEO } from '@glimpse/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { AppContext } from '../../context.ts';
import { queryRows } from '../../db/client.ts';
import { originalKey, uploadPrefix } from '../../storage/media-keys.ts';
import { bearer, createTestApp, createUser, makeClip, postChunk, type TestContext } from '../../../test/harness.ts';
import { startS3, type TestS3 } from '../../../test/s3.ts';

/**
 * The chunk protocol under a client with several chunks in flight (ADR 018), on the local storage
 * driver and on S3 (s3rver): chunks arrive out of order, twice, retried with other bytes, and the
 * last chunk races itself; the storage's uploads/ prefix holds exactly the recorded chunks.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const split = (file: Buffer, size: number) => Array.from({ length: Math.ceil(file.length / size) }, (_, i) => file.subarray(i * size, (i + 1) * size));
const shuffled = <T>(list: T[]) => list.map((v) => [Math.random(), v] as const).sort((a, b) => a[0] - b[0]).map(([, v]) => v);

let clip: Buffer;
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-par-'));
  clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { width: 320, height: 240, seconds: 2 }));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe.each(['local', 's3'] as const)('parallel chunks on %s storage', (kind) => {
  let t: TestContext;
  let s3: TestS3 | undefined;
  let ctx: AppContext;
  let app: TestContext['app'];
  beforeAll(async () => {
    t = await createTestApp();
    if (kind === 's3') {
      s3 = await startS3();
      ctx = { ...t.ctx, storage: s3.storage };
      app = await buildApp(ctx);
    } else {
      ctx = t.ctx;
      app = t.app;
    }
  });
  afterAll(async () => {
    if (app !== t.app) await app.close();
    await t.close();
    await s3?.close();
  });

  const held = (userId: string, uniqueId: string) => ctx.storage.bytesUnder(uploadPrefix(userId, uniqueId));
  const videos = async (ownerId: string) =>
    (await queryRows<{ id: string }>(ctx.db, sql`SELECT id FROM videos WHERE owner_id = ${ownerId}`)).map((r) => r.id);

  it('assembles a byte-identical file from chunks sent all at once, shuffled and duplicated, numbered from 1', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    const parts = split(clip, Math.ceil(clip.length / 12));
    const total = parts.length;
    const rest = parts.slice(0, -1).map((chunk, i) => ({ n: i + 1, chunk }));
    const sends = shuffled([...rest, ...rest.slice(0, 4)]);
    const answers = await Promise.all(sends.map(({ n, chunk }) => postChunk(app, auth, { uniqueId: 'par', chunkNumber: n, totalChunks: total }, chunk)));
    expect(answers.map((a) => a.statusCode)).toEqual(sends.map(() => 200));
    const status = (await app.inject({ method: 'GET', url: '/api/v1/videos/uploads/par', headers: auth })).json().data;
    expect(status.receivedChunks).toEqual(rest.map((r) => r.n));
    // Every duplicate replaced its chunk: the storage holds each chunk once.
    expect(await held(owner.id, 'par')).toBe(clip.length - parts.at(-1)!.length);

    const last = await postChunk(app, auth, { uniqueId: 'par', chunkNumber: total, totalChunks: total }, parts.at(-1)!, { isLastChunk: '1', title: 'Parallel' });
    expect(last.statusCode).toBe(201);
    const id = last.json().data.video._id;
    expect(sha(await buffer(await ctx.storage.getStream(originalKey(id))))).toBe(sha(clip));
    expect(await held(owner.id, 'par')).toBe(0);
  });

  it('a retried chunk replaces the earlier bytes: one row, one object, the retry counts', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    const q = { uniqueId: 'retry', chunkNumber: 0, totalChunks: 3 };
    await postChunk(app, auth, q, Buffer.alloc(1000, 1));
    const again = await postChunk(app, auth, q, Buffer.alloc(700, 2));
    expect(again.json().data).toMatchObject({ receivedChunks: [0], receivedBytes: 700 });
    expect(await held(owner.id, 'retry')).toBe(700);
  });

  it('a bad last chunk and a refused chunk leave nothing in the storage', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    await postChunk(app, auth, { uniqueId: 'bad', chunkNumber: 0, totalChunks: 2 }, Buffer.alloc(500, 3));
    const untitled = await postChunk(app, auth, { uniqueId: 'bad', chunkNumber: 1, totalChunks: 2 }, Buffer.alloc(400, 4), { isLastChunk: 'true' });
    expect(untitled.statusCode).toBe(400);
    const otherTotal = await postChunk(app, auth, { uniqueId: 'bad', chunkNumber: 1, totalChunks: 3 }, Buffer.alloc(400, 4));
    expect(otherTotal.json().message).toBe('totalChunks does not match this upload (2)');
    expect(await held(owner.id, 'bad')).toBe(500);
  });

  it('a joined file that is not a video leaves neither its original nor its chunks', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    const before = await ctx.storage.bytesUnder('originals');
    // A cut mp4 (its index first, its media data short): joined from three chunks, then refused by the checks.
    const parts = split(clip.subarray(0, Math.floor(clip.length * 0.6)), Math.ceil(clip.length / 5));
    await Promise.all(parts.slice(0, -1).map((chunk, n) => postChunk(app, auth, { uniqueId: 'cut', chunkNumber: n, totalChunks: parts.length }, chunk)));
    const last = await postChunk(app, auth, { uniqueId: 'cut', chunkNumber: parts.length - 1, totalChunks: parts.length }, parts.at(-1)!, {
      isLastChunk: 'true',
      title: 'Cut',
    });
    expect(last.statusCode).toBe(400);
    expect(last.json().message).toBe(NOT_A_VIDEO);
    expect(await ctx.storage.bytesUnder('originals')).toBe(before);
    expect(await held(owner.id, 'cut')).toBe(0);
    expect(await videos(owner.id)).toEqual([]);
  });

  it('a last chunk sent while chunks are missing answers which, keeps the session, and finishes when resent', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    const parts = split(clip, Math.ceil(clip.length / 4));
    const early = await postChunk(app, auth, { uniqueId: 'early', chunkNumber: 3, totalChunks: 4 }, parts[3]!, { isLastChunk: 'true', title: 'Early' });
    expect(early.statusCode).toBe(400);
    expect(early.json().data.missingChunks).toEqual([0, 1, 2]);
    await Promise.all([2, 0, 1].map((n) => postChunk(app, auth, { uniqueId: 'early', chunkNumber: n, totalChunks: 4 }, parts[n]!)));
    const again = await postChunk(app, auth, { uniqueId: 'early', chunkNumber: 3, totalChunks: 4 }, parts[3]!, { isLastChunk: 'true', title: 'Early' });
    expect(again.statusCode).toBe(201);
    expect(await videos(owner.id)).toHaveLength(1);
  });

  it('three copies of the last chunk at once create one video', async () => {
    const owner = await createUser(ctx);
    const auth = await bearer(ctx, owner);
    const parts = split(clip, Math.ceil(clip.length / 3));
    await Promise.all([0, 1].map((n) => postChunk(app, auth, { uniqueId: 'race', chunkNumber: n, totalChunks: 3 }, parts[n]!)));
    const lasts = await Promise.all(
      [1, 2, 3].map(() => postChunk(app, auth, { uniqueId: 'race', chunkNumber: 2, totalChunks: 3 }, parts[2]!, { isLastChunk: 'true', title: 'Race' })),
    );
    const codes = lasts.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201), JSON.stringify(lasts.map((r) => r.json()))).toHaveLength(1);
    // The others were refused while it was being finished (409: its chunks stay as they are), or
    // came after, to a session that had gone (400: missing chunks).
    for (const r of lasts.filter((a) => a.statusCode !== 201)) expect([400, 409]).toContain(r.statusCode);
    expect(await videos(owner.id)).toHaveLength(1);
  });
});
