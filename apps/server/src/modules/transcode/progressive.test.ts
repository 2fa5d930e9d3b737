import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../worker.ts';
import type { JobLogger } from '../../jobs/worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { bearer, createTestApp, createUser, makeClip, memoryLog, uploadVideo, type TestContext } from '../../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const variants = (master: string) => master.split('\n').filter((l) => l.endsWith('/index.m3u8') && !l.startsWith('#'));

describe('progressive playability (ADR 019)', () => {
  it('plays at the lowest rung once the first pass is stored, unseen by others while unpublished; a job stopped there goes on without redoing that rung; the dashboard lists the rungs ready', async () => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    // 640x360: a ladder of 240p and 360p.
    const clip = await readFile(await makeClip(path.join(t.dataDir, 'two-rungs.mp4'), { width: 640, height: 360, seconds: 4 }));
    const id: string = (await uploadVideo(t.app, auth, clip, 'Two rungs')).json().data.video._id;
    const get = async (url: string, headers: Record<string, string> = auth) => t.app.inject({ method: 'GET', url, headers });
    const owned = async () => (await get(`/api/v1/videos/${id}`)).json().data.video;
    const dashboardRow = async () => (await get('/api/v1/dashboard/channel-videos')).json().data.videos.find((v: { _id: string }) => v._id === id);

    // The worker stops (as at a shutdown) as soon as the first pass is stored: the job goes back to the queue.
    const log = memoryLog();
    const stopping: JobLogger = {
      info: (obj, msg) => {
        log.info(obj, msg);
        if (msg === 'video playable') void first.stop();
      },
      error: log.error,
    };
    const first = createWorker(t.ctx, stopping);
    expect(await first.runOnce()).toBe(true);
    expect(log.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['video playable', 'job requeued: the worker is stopping']));

    const playable = await owned();
    expect(playable).toMatchObject({ status: 'ready', renditions: [{ name: '240p', ready: true }, { name: '360p', ready: false }] });
    expect(playable.progress).toBeLessThan(1);
    expect((await dashboardRow()).renditions).toEqual(playable.renditions);
    const master = await get(playable.videoFile.url);
    expect(master.statusCode).toBe(200);
    expect(variants(master.body)).toEqual(['240p/index.m3u8']);
    expect(master.body).toContain('#EXT-X-MEDIA:TYPE=AUDIO');
    const segment = (rung: string) => playable.videoFile.url.replace('master.m3u8', `${rung}/seg_00000.m4s`);
    expect((await get(segment('240p'))).statusCode).toBe(200);
    expect((await get(playable.storyboard.url)).statusCode).toBe(200);
    expect((await get(playable.thumbnail.url)).statusCode).toBe(200);
    // Not published: nobody else sees it, playable or not.
    expect((await get(`/api/v1/videos/${id}`, {})).statusCode).toBe(404);

    const storage = t.ctx.storage as LocalStorage;
    const lowest = storage.pathOf(`videos/${id}/hls/240p/seg_00000.m4s`);
    const before = await stat(lowest);

    const next = memoryLog();
    await createWorker(t.ctx, next).drain();
    expect(next.lines.map((l) => l.msg)).toContain('video ready');
    expect(next.lines.map((l) => l.msg)).not.toContain('video playable');
    const done = await owned();
    expect(done).toMatchObject({ status: 'ready', progress: 1, renditions: [{ name: '240p', ready: true }, { name: '360p', ready: true }] });
    expect((await dashboardRow()).renditions).toEqual(done.renditions);
    const full = await get(done.videoFile.url);
    expect(full.headers.etag).not.toBe(master.headers.etag);
    expect(variants(full.body)).toEqual(['240p/index.m3u8', '360p/index.m3u8']);
    expect(full.body.match(/#EXT-X-MEDIA:TYPE=AUDIO/g)).toHaveLength(1);
    expect((await get(segment('360p'))).statusCode).toBe(200);
    // The first pass's files were left as they were.
    const after = await stat(lowest);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await t.ctx.storage.exists(`videos/${id}/progressive.mp4`)).toBe(true);
  }, 300_000);
});
