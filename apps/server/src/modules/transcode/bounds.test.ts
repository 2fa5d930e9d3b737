import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipJob } from '@glimpse/media';
import { createWorker } from '../../worker.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { bearer, createTestApp, createUser, memoryLog, testMedia, uploadVideo, type TestContext } from '../../../test/harness.ts';

/** Work a user can make expensive stays bounded: gaps are closed up, a deleted video stops its transcode. */
let t: TestContext;
let dir: string;
beforeAll(async () => {
  // Ten hours is under this instance's limit: the gap must be neutralised, not just refused.
  t = await createTestApp({ LADDER_PRESET: 'ultrafast', MAX_VIDEO_MINUTES: '700' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-bounds-'));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function uploadClip(name: string, spec: Omit<Parameters<typeof clipJob>[0], 'out'>) {
  const out = path.join(dir, name);
  await testMedia.engine.run(clipJob({ ...spec, out }));
  const user = await createUser(t.ctx);
  const auth = await bearer(t.ctx, user);
  const res = await uploadVideo(t.app, auth, await readFile(out), name);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().data.video._id as string, auth };
}

const x264 = { codec: 'libx264', options: { preset: 'ultrafast' } };

describe('bounded transcoding', () => {
  it('closes up a ten-hour timestamp gap instead of padding frames, and the next user\'s clip still becomes ready', async () => {
    const bomb = await uploadClip('gap.mp4', { seconds: 3, width: 320, height: 240, container: 'mp4', video: x264, audio: false, videoFilter: "trim=end_frame=51,setpts='if(eq(N\\,50)\\,36000/TB\\,PTS)'" });
    const other = await uploadClip('other.mp4', { seconds: 2, width: 320, height: 240, container: 'mp4', video: x264 });
    const t0 = Date.now();
    const log = memoryLog();
    // Two transcodes and their two fan-outs (each owner is told).
    expect(await createWorker(t.ctx, log).drain()).toBe(4);
    expect(Date.now() - t0).toBeLessThan(60_000);
    const repo = new VideosRepository(t.ctx.db);
    const gap = await repo.findRow(bomb.id);
    expect(gap, gap?.failureReason ?? '').toMatchObject({ status: 'ready' });
    expect(gap!.duration).toBeLessThan(5);
    expect(await repo.findRow(other.id)).toMatchObject({ status: 'ready' });
  }, 120_000);

  it('deleting a video while it transcodes stops the engine within seconds and leaves no files', async () => {
    const { id, auth } = await uploadClip('long.mp4', { seconds: 120, width: 1280, height: 720, container: 'mp4', video: { codec: 'libx264', options: { preset: 'ultrafast', crf: '40' } }, audio: false });
    const repo = new VideosRepository(t.ctx.db);
    const log = memoryLog();
    const drained = createWorker(t.ctx, log).drain();
    // Wait until the engine is really at work (progress written), then delete.
    for (let i = 0; i < 600 && ((await repo.findRow(id))?.progress ?? 0) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await repo.findRow(id))!.progress).toBeGreaterThan(0);
    const t0 = Date.now();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${id}`, headers: auth })).statusCode).toBe(200);
    await drained;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(log.lines.some((l) => l.msg === 'job cancelled')).toBe(true);
    expect(existsSync(path.join(t.dataDir, 'tmp', 'transcode', id))).toBe(false);
    expect(existsSync(path.join(t.dataDir, 'media', 'videos', id))).toBe(false);
  }, 120_000);
});
