import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, formatBytes } from '@glimpse/contract';
import { createWorker } from '../../worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { uploadPrefix } from '../../storage/media-keys.ts';
import type { UserRow } from '../users/users.repository.ts';
import { call, expectError, rows } from '../../../test/http.ts';
import {
  bearer,
  createClipApp,
  createUser,
  createVideo,
  expectApiError,
  memoryLog,
  multipartInject,
  postChunk,
  TINY_PNG,
  uploadVideo,
  type TestContext,
} from '../../../test/harness.ts';
import { StorageUsageRepository } from './storage-usage.repository.ts';

let t: TestContext & { clip: Buffer };
beforeAll(async () => {
  t = await createClipApp();
});
afterAll(() => t.close());
afterEach(() => t.ctx.settings.update({ quotaBytes: null, dailyQuotaBytes: null }));

/** Bytes of every stored file under the video's folders (media and original), walked on disk. */
async function storedBytes(videoIds: string[]): Promise<number> {
  const root = (t.ctx.storage as LocalStorage).root;
  let total = 0;
  for (const id of videoIds) {
    for (const folder of [`videos/${id}`, `originals/${id}`]) {
      const dir = path.join(root, folder);
      if (!existsSync(dir)) continue;
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
      }
    }
  }
  return total;
}
const counter = async (user: UserRow) => (await rows<{ n: number }>(t, sql`SELECT storage_bytes::float8 AS n FROM users WHERE id = ${user.id}`))[0]!.n;
const videoIds = async (user: UserRow) => (await rows<{ id: string }>(t, sql`SELECT id FROM videos WHERE owner_id = ${user.id}`)).map((r) => r.id);
const sessions = async (user: UserRow) => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM upload_sessions WHERE user_id = ${user.id}`))[0]!.n;
const drain = () => createWorker(t.ctx, memoryLog()).drain();

/** A user holding `bytes` already (a video row with that source size, counted as an upload would). */
async function userHolding(bytes: number): Promise<UserRow> {
  const user = await createUser(t.ctx);
  await createVideo(t.ctx, user, { sourceBytes: bytes });
  await t.ctx.db.transaction((tx) => new StorageUsageRepository(tx).recount(user.id));
  return user;
}

describe('formatBytes', () => {
  it('writes decimal units with one decimal at most', () => {
    expect([4.8e9, 5e9, 4_999_999_999, 512_000, 1_500_000, 80, 1, 0].map(formatBytes)).toEqual([
      '4.8 GB',
      '5 GB',
      '4.9 GB',
      '512 kB',
      '1.5 MB',
      '80 bytes',
      '1 byte',
      '0 bytes',
    ]);
  });
});

describe('quota at the first chunk', () => {
  it('refuses an upload whose chunks cannot fit, with the exact message, and stores nothing', async () => {
    const user = await userHolding(4_850_000_000);
    await t.ctx.settings.update({ quotaBytes: 5_000_000_000 });
    // 60 chunks hold at least 59 full 3 MB chunks: 185 MB more than the 150 MB left.
    const res = await postChunk(t.app, await bearer(t.ctx, user), { uniqueId: 'big', chunkNumber: 0, totalChunks: 60 }, t.clip);
    expectApiError(res, 413, 'This video is larger than what remains of your upload quota: 150 MB of 5 GB left');
    expect(res.json().data).toEqual({ usedBytes: 4_850_000_000, limitBytes: 5_000_000_000 });
    expect(await sessions(user)).toBe(0);
    expect(existsSync(path.join((t.ctx.storage as LocalStorage).root, uploadPrefix(user.id, 'big')))).toBe(false);
  });

  it('lets a small upload start when its last chunk may still fit', async () => {
    const user = await userHolding(4_850_000_000);
    await t.ctx.settings.update({ quotaBytes: 5_000_000_000 });
    const res = await postChunk(t.app, await bearer(t.ctx, user), { uniqueId: 'small', chunkNumber: 0, totalChunks: 2 }, t.clip.subarray(0, 1000));
    expect(res.statusCode).toBe(200);
  });

  it('refuses any new upload once the total is over the quota (a transcode may have taken it there)', async () => {
    const user = await userHolding(2_000_000);
    await t.ctx.settings.update({ quotaBytes: 1_000_000 });
    const res = await postChunk(t.app, await bearer(t.ctx, user), { uniqueId: 'one', chunkNumber: 0, totalChunks: 1 }, t.clip, { isLastChunk: 'true', title: 'T' });
    expectApiError(res, 413, accountMessages.quota.usedUp(2_000_000, 1_000_000));
    expect(res.json().message).toBe('Your upload quota is used up: 2 MB of 1 MB');
  });
});

describe('quota at the last chunk', () => {
  it('refuses an upload whose actual bytes exceed what is left, and discards its chunks', async () => {
    const user = await createUser(t.ctx);
    await t.ctx.settings.update({ quotaBytes: t.clip.length - 1 });
    const auth = await bearer(t.ctx, user);
    // One chunk: nothing is promised at the first chunk, the actual bytes decide (the chunk was stored, then discarded).
    // Nothing is used: the video alone is larger than the quota, and the message says so.
    const res = await postChunk(t.app, auth, { uniqueId: 'up', chunkNumber: 0, totalChunks: 1 }, t.clip, { isLastChunk: 'true', title: 'T' });
    expectApiError(res, 413, `This video is larger than your upload quota of ${formatBytes(t.clip.length - 1)}`);
    expect(await sessions(user)).toBe(0);
    expect(existsSync(path.join((t.ctx.storage as LocalStorage).root, uploadPrefix(user.id, 'up')))).toBe(false);
    expect(await videoIds(user)).toEqual([]);
    expect(await counter(user)).toBe(0);
  });

  it('daily quota: counts uploads of the last 24 hours, even of videos deleted since', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    await t.ctx.settings.update({ dailyQuotaBytes: Math.floor(t.clip.length * 1.5) });
    const first = await uploadVideo(t.app, auth, t.clip, 'First');
    expect(first.statusCode).toBe(201);
    expect((await call(t, 'DELETE', `/videos/${first.json().data.video._id}`, { as: user })).status).toBe(200);
    const second = await uploadVideo(t.app, auth, t.clip, 'Second');
    // Half a clip is left of the day's quota: the message says what remains.
    expectApiError(second, 413, accountMessages.dailyQuota.largerThanLeft(t.clip.length, Math.floor(t.clip.length * 1.5)));
    expect(second.json().message).toBe(
      `This video is larger than what remains of your daily upload quota: ${formatBytes(Math.floor(t.clip.length * 1.5) - t.clip.length)} of ${formatBytes(Math.floor(t.clip.length * 1.5))} left`,
    );
    // A day later the window is empty again.
    await rows(t, sql`UPDATE upload_bytes SET uploaded_at = now() - interval '25 hours' WHERE user_id = ${user.id}`);
    await createWorker(t.ctx, memoryLog(), { maintenanceMs: 0 }).runOnce();
    expect((await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM upload_bytes WHERE user_id = ${user.id}`))[0]!.n).toBe(0);
    expect((await uploadVideo(t.app, auth, t.clip, 'Third')).statusCode).toBe(201);
    await drain();
  });
});

describe('the counter follows the files', () => {
  it('equals the stored bytes after upload, transcode, thumbnail change and delete; GET /users/me/storage reports it', async () => {
    const user = await createUser(t.ctx);
    const auth = await bearer(t.ctx, user);
    const up = await uploadVideo(t.app, auth, t.clip, 'Counted');
    expect(up.statusCode).toBe(201);
    const id = up.json().data.video._id as string;
    expect(await counter(user)).toBe(t.clip.length);
    expect(await counter(user)).toBe(await storedBytes([id]));

    expect(await drain()).toBeGreaterThan(0);
    const [video] = await rows<{ status: string; media_bytes: number; thumbnail_bytes: number }>(
      t,
      sql`SELECT status, media_bytes::float8 AS media_bytes, thumbnail_bytes::float8 AS thumbnail_bytes FROM videos WHERE id = ${id}`,
    );
    expect(video).toMatchObject({ status: 'ready' });
    expect(video!.media_bytes).toBeGreaterThan(0);
    expect(video!.thumbnail_bytes).toBeGreaterThan(0);
    const afterTranscode = await counter(user);
    expect(afterTranscode).toBe(await storedBytes([id]));
    expect(afterTranscode).toBeGreaterThan(t.clip.length);

    const form = new FormData();
    form.append('image', new Blob([TINY_PNG], { type: 'image/png' }), 'thumb.png');
    expect((await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/videos/${id}`, headers: auth, form })).statusCode).toBe(200);
    expect(await counter(user)).toBe(await storedBytes([id]));

    await t.ctx.settings.update({ quotaBytes: 5_000_000_000, dailyQuotaBytes: 1_000_000_000 });
    const usage = await call(t, 'GET', '/users/me/storage', { as: user });
    expect(usage.body.data).toEqual({
      usedBytes: await counter(user),
      quotaBytes: 5_000_000_000,
      remainingBytes: 5_000_000_000 - (await counter(user)),
      dailyUsedBytes: t.clip.length,
      dailyQuotaBytes: 1_000_000_000,
    });

    expect((await call(t, 'DELETE', `/videos/${id}`, { as: user })).status).toBe(200);
    expect(await counter(user)).toBe(0);
    expect(await storedBytes([id])).toBe(0);
  });

  it('measures in storage the videos stored before quotas (the worker\'s housekeeping), once, and counts them', async () => {
    const user = await createUser(t.ctx);
    const old = await createVideo(t.ctx, user, { storageMeasured: false });
    const busy = await createVideo(t.ctx, user, { storageMeasured: false, status: 'processing' });
    const sourceKey = `originals/${old.id}/source.mp4`;
    const thumbnailKey = `videos/${old.id}/poster.jpg`;
    await t.ctx.db.execute(sql`UPDATE videos SET source_key = ${sourceKey}, thumbnail_key = ${thumbnailKey} WHERE id = ${old.id}`);
    await t.ctx.storage.putBuffer(sourceKey, Buffer.alloc(1000));
    await t.ctx.storage.putBuffer(thumbnailKey, Buffer.alloc(200));
    await t.ctx.storage.putBuffer(`videos/${old.id}/hls/720p/seg-0.m4s`, Buffer.alloc(3000));
    await t.ctx.storage.putBuffer(`videos/${busy.id}/hls/720p/seg-0.m4s`, Buffer.alloc(500));
    expect(await counter(user)).toBe(0);

    await createWorker(t.ctx, memoryLog(), { maintenanceMs: 0 }).runOnce();
    const measured = await rows<{ id: string; source_bytes: number; media_bytes: number; thumbnail_bytes: number; storage_measured: boolean }>(
      t,
      sql`SELECT id, source_bytes::float8 AS source_bytes, media_bytes::float8 AS media_bytes, thumbnail_bytes::float8 AS thumbnail_bytes, storage_measured
          FROM videos WHERE owner_id = ${user.id} ORDER BY id`,
    );
    expect(measured.find((v) => v.id === old.id)).toMatchObject({ source_bytes: 1000, media_bytes: 3000, thumbnail_bytes: 200, storage_measured: true });
    // Still being transcoded: measured once the transcode has written its files.
    expect(measured.find((v) => v.id === busy.id)).toMatchObject({ storage_measured: false });
    expect(await counter(user)).toBe(4200);
    expect(await counter(user)).toBe(await storedBytes([old.id]));
  });

  it("counts a live's thumbnail in its owner's storage as it is set, replaced, removed and deleted with the live; measures one stored before it was counted", async () => {
    await t.ctx.settings.update({ livesEnabled: true });
    const user = await createUser(t.ctx);
    const used = async () => (await call(t, 'GET', '/users/me/storage', { as: user })).body.data.usedBytes as number;
    const form = (name: string) => {
      const f = new FormData();
      f.append('image', new Blob([TINY_PNG]), name);
      return f;
    };
    /** The live's stored thumbnail file's bytes, read in storage. */
    const fileBytes = async (thumbnailUrl: string) => t.ctx.storage.bytesUnder(`lives/${liveId}/${thumbnailUrl.split('/').pop()}`);
    const liveId = (await call(t, 'POST', '/lives', { as: user, body: { title: 'Counted' } })).body.data.live._id as string;
    expect(await used()).toBe(0);

    const first = (await call(t, 'PUT', `/lives/${liveId}/thumbnail`, { as: user, body: form('a.png') })).body.data.thumbnail as string;
    const firstBytes = await fileBytes(first);
    expect(firstBytes).toBeGreaterThan(0);
    expect(await used()).toBe(firstBytes);
    // Replaced: the old file's bytes go, the new one's count; not twice.
    const second = (await call(t, 'PUT', `/lives/${liveId}/thumbnail`, { as: user, body: form('b.png') })).body.data.thumbnail as string;
    expect(await used()).toBe(await fileBytes(second));
    await call(t, 'DELETE', `/lives/${liveId}/thumbnail`, { as: user });
    expect(await used()).toBe(0);
    const third = (await call(t, 'PUT', `/lives/${liveId}/thumbnail`, { as: user, body: form('c.png') })).body.data.thumbnail as string;
    const thirdBytes = await fileBytes(third);
    expect(await used()).toBe(thirdBytes);

    // A thumbnail from before migration 1080 (its size unknown): the housekeeping measures and counts it, once.
    await t.ctx.db.execute(sql`UPDATE lives SET thumbnail_bytes = NULL WHERE id = ${liveId}`);
    await new StorageUsageRepository(t.ctx.db).recount(user.id);
    expect(await used()).toBe(0);
    await createWorker(t.ctx, memoryLog(), { maintenanceMs: 0 }).runOnce();
    expect(await used()).toBe(thirdBytes);
    await createWorker(t.ctx, memoryLog(), { maintenanceMs: 0 }).runOnce();
    expect(await used()).toBe(thirdBytes);

    expect((await call(t, 'DELETE', `/lives/${liveId}`, { as: user })).status).toBe(200);
    expect(await used()).toBe(0);
  });

  it('GET /users/me/storage: no limits by default, 401 for a visitor', async () => {
    const user = await createUser(t.ctx);
    const res = await call(t, 'GET', '/users/me/storage', { as: user });
    expect(res.body.data).toEqual({ usedBytes: 0, quotaBytes: null, remainingBytes: null, dailyUsedBytes: 0, dailyQuotaBytes: null });
    expectError(await call(t, 'GET', '/users/me/storage'), 401, 'Please login to see your storage');
  });
});
