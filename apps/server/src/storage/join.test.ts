import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/**
 * Storage.join, the last chunk's assembly (ADR 025): on the local driver by links (what it does),
 * with the kernel's copy (`cat`) and with Node's streams (what it falls back to where it cannot link,
 * and where there is no `cat`), and on an S3-protocol server (s3rver), with a part size of 100 KB
 * there so that a few chunks make several parts.
 */
describe.each(['local', 'local copied', 'local without cat', 's3'] as const)('joining upload chunks on %s storage', (kind) => {
  let dir: string;
  let s3: TestS3 | undefined;
  let storage: Storage;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-join-'));
    if (kind === 'local') {
      storage = new LocalStorage(path.join(dir, 'media'));
    } else if (kind === 'local copied') {
      storage = new LocalStorage(path.join(dir, 'media'), '/media', { link: false });
    } else if (kind === 'local without cat') {
      storage = new LocalStorage(path.join(dir, 'media'), '/media', { link: false, cat: path.join(dir, 'no-such-cat') });
    } else {
      s3 = await startS3();
      const { endpoint } = s3;
      storage = new S3Storage({ bucket: 'media', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }, 100_000);
    }
  });
  afterAll(async () => {
    if (storage instanceof S3Storage) storage.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Chunk sizes as a client sends them: full ones and a short last one (here 48 KB full chunks).
  const chunksOf = (sizes: number[]) => sizes.map((n) => randomBytes(n));

  it('stores the parts in order as one object and hands out a file with the same bytes; the parts stay', async () => {
    const chunks = chunksOf([48_000, 48_000, 48_000, 48_000, 48_000, 17]);
    const keys = chunks.map((_, i) => `uploads/u1/up1/${i}-n.part`);
    // Stored out of order, as parallel chunks land.
    for (const i of [3, 0, 5, 1, 4, 2]) await storage.putBuffer(keys[i]!, chunks[i]!);
    const whole = Buffer.concat(chunks);
    const scratch = path.join(dir, 'scratch-1');
    const joined = await storage.join('originals/v1/source.mp4', keys, scratch);
    expect(joined.bytes).toBe(whole.length);
    expect((await joined.read(0, whole.length + 10)).equals(whole)).toBe(true);
    // A read across a chunk's boundary, as the box check makes.
    expect((await joined.read(47_990, 100)).equals(whole.subarray(47_990, 48_090))).toBe(true);
    expect((await buffer(await storage.getStream('originals/v1/source.mp4'))).equals(whole)).toBe(true);
    expect(await storage.bytesUnder('originals/v1')).toBe(whole.length);
    for (const key of keys) expect(await storage.exists(key)).toBe(true);
    await joined.release();
    // The checks' copy goes; the stored object stays (on the local driver they are one file).
    expect(await storage.exists('originals/v1/source.mp4')).toBe(true);
    if (kind === 's3') await expect(stat(scratch)).rejects.toThrow();
    else if (kind === 'local') expect(joined.source).toMatch(/^concat:\/\//);
    else expect(joined.source).toBe((storage as LocalStorage).pathOf('originals/v1/source.mp4'));
  });

  it('joins a single short chunk (an upload of one chunk)', async () => {
    await storage.putBuffer('uploads/u1/up2/1-n.part', Buffer.from('tiny'));
    const joined = await storage.join('originals/v2/source.mp4', ['uploads/u1/up2/1-n.part'], path.join(dir, 'scratch-2'));
    expect((await buffer(await storage.getStream('originals/v2/source.mp4'))).toString()).toBe('tiny');
    expect(joined.bytes).toBe(4);
    expect((await joined.read(1, 2)).toString()).toBe('in');
    await joined.release();
  });

  it('leaves neither the object nor the copy when a part is missing', async () => {
    const chunks = chunksOf([48_000, 48_000, 48_000]);
    await storage.putBuffer('uploads/u1/up3/0-n.part', chunks[0]!);
    await storage.putBuffer('uploads/u1/up3/1-n.part', chunks[1]!);
    const scratch = path.join(dir, 'scratch-3');
    const parts = ['uploads/u1/up3/0-n.part', 'uploads/u1/up3/1-n.part', 'uploads/u1/up3/2-gone.part'];
    await expect(storage.join('originals/v3/source.mp4', parts, scratch)).rejects.toThrow();
    expect(await storage.exists('originals/v3/source.mp4')).toBe(false);
    expect(await storage.bytesUnder('originals/v3')).toBe(0);
    await expect(stat(scratch)).rejects.toThrow();
  });
});

describe.each([
  ['by links', {}],
  ['with cat', { link: false }],
  ['without cat', { link: false, cat: null }],
] as const)('the local driver joining many chunks %s', (_, options) => {
  it('joins more chunks than one `cat` run takes, in order', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-join-'));
    try {
      const storage = new LocalStorage(path.join(dir, 'media'), '/media', options);
      // 450 chunks: three runs of the join's command writing one after the other into the same file.
      const chunks = Array.from({ length: 450 }, (_, i) => Buffer.from(`chunk ${i};`));
      const keys = chunks.map((_, i) => `uploads/u1/many/${i}-n.part`);
      for (const [i, key] of keys.entries()) await storage.putBuffer(key, chunks[i]!);
      const joined = await storage.join('originals/v4/source.mp4', keys);
      expect((await joined.read(0, joined.bytes)).toString()).toBe(Buffer.concat(chunks).toString());
      expect((await buffer(await storage.getStream('originals/v4/source.mp4'))).toString()).toBe(Buffer.concat(chunks).toString());
      expect(joined.bytes).toBe(Buffer.concat(chunks).length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * An original the local driver keeps as linked chunks answers as the same bytes stored as one file
 * do (what @fastify/send answers), and lives and goes as one object.
 */
describe('a linked original on the local driver', () => {
  let dir: string;
  let storage: LocalStorage;
  const chunks = [randomBytes(48_000), randomBytes(48_000), randomBytes(1_000)];
  const whole = Buffer.concat(chunks);
  const keys = chunks.map((_, i) => `uploads/u1/lk/${i}-n.part`);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-linked-'));
    storage = new LocalStorage(path.join(dir, 'media'));
    for (const [i, key] of keys.entries()) await storage.putBuffer(key, chunks[i]!);
    await storage.join('originals/lk/source.mp4', keys);
    await storage.putBuffer('originals/one/source.mp4', whole);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('outlives its upload prefix and moves as one object', async () => {
    await storage.deletePrefix('uploads/u1/lk');
    expect((await storage.parted('originals/lk/source.mp4'))?.parts.length).toBe(3);
    expect(await storage.exists('originals/lk/source.mp4')).toBe(true);
    expect(await storage.bytesUnder('originals/lk')).toBe(whole.length);
    await storage.move('originals/lk/source.mp4', 'originals/lk2/source.mp4');
    expect(await storage.exists('originals/lk/source.mp4')).toBe(false);
    expect((await buffer(await storage.getStream('originals/lk2/source.mp4'))).equals(whole)).toBe(true);
    expect(await storage.engineInput('originals/lk2/source.mp4')).toMatch(/^concat:\/\/.*000001\.part\|\/\/.*000003\.part$/);
    expect(await storage.engineInput('originals/one/source.mp4')).toBe(storage.pathOf('originals/one/source.mp4'));
    await storage.move('originals/lk2/source.mp4', 'originals/lk/source.mp4');
  });

  it('answers byte ranges, HEAD and revalidation as the same bytes in one file do', async () => {
    const requests: Record<string, string>[] = [
      {},
      { range: 'bytes=47990-48099' },
      { range: 'bytes=47990-' },
      { range: 'bytes=-50000' },
      { range: 'bytes=0-0' },
      { range: 'bytes=96999-99999' },
      { range: 'bytes=97000-' },
      { range: 'bytes=5-1' },
      { range: 'bytes=0-1,5-9' },
      { range: 'pages=1' },
    ];
    for (const headers of requests) {
      for (const method of ['GET', 'HEAD']) {
        const [linked, single] = await Promise.all(['lk', 'one'].map((v) => storage.answer(`originals/${v}/source.mp4`, { method, headers })));
        const body = async (a: typeof linked) => (a?.body ? await buffer(a.body) : Buffer.alloc(0));
        const pick = (a: typeof linked) => ({ status: a?.statusCode, length: a?.headers['Content-Length'], range: a?.headers['Content-Range'] });
        expect({ ...pick(linked), headers, method }).toEqual({ ...pick(single), headers, method });
        expect(await body(linked)).toEqual(await body(single));
      }
    }
    const first = await storage.answer('originals/lk/source.mp4', { headers: {} });
    const etag = String(first!.headers.ETag);
    await buffer(first!.body!);
    expect((await storage.answer('originals/lk/source.mp4', { headers: { 'if-none-match': etag } }))?.statusCode).toBe(304);
    // A range under a stale If-Range is the whole file.
    expect((await storage.answer('originals/lk/source.mp4', { headers: { range: 'bytes=0-9', 'if-range': 'W/"old"' } }))?.statusCode).toBe(200);
  });

  it('is deleted as one object', async () => {
    await storage.delete('originals/lk/source.mp4');
    expect(await storage.exists('originals/lk/source.mp4')).toBe(false);
    expect(await storage.bytesUnder('originals/lk')).toBe(0);
    expect(await storage.answer('originals/lk/source.mp4', { headers: {} })).toBeNull();
  });
});
