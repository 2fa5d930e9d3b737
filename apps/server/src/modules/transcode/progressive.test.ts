import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseProbe } from '@glimpse/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../worker.ts';
import type { JobLogger } from '../../jobs/worker.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { bearer, createTestApp, createUser, makeClip, memoryLog, testMedia, uploadVideo, type TestContext } from '../../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  // The fastest x264 presets: these tests are about when files exist, not about their quality.
  t = await createTestApp({ LADDER_PRESET: 'ultrafast', LADDER_FIRST_PRESET: 'ultrafast' });
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

  it('a 60 s 1080p upload: its mp4 plays with a Range request the moment the video says ready (the lowest rung), and at the same URL from the 720p rung once the ladder is done', async ({ annotate }) => {
    const owner = await createUser(t.ctx);
    const auth = await bearer(t.ctx, owner);
    // 10 frames a second keeps the clip and its five rungs cheap on two cores; it is still a minute of 1920x1080.
    const clip = await readFile(await makeClip(path.join(t.dataDir, 'full-hd.mp4'), { width: 1920, height: 1080, seconds: 60, fps: 10 }));
    const id: string = (await uploadVideo(t.app, auth, clip, 'A minute in full HD')).json().data.video._id;
    const uploaded = Date.now();
    expect((await t.app.inject({ method: 'PATCH', url: `/api/v1/videos/${id}/publish`, headers: auth, payload: { isPublished: true } })).statusCode).toBe(200);

    // A spec client without a login: asks for the video until it says ready, then plays videoFile.publicId.
    const visitor = { authorization: 'Bearer undefined' };
    const mp4 = (publicId: string, range?: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/videos/video/${publicId}.mp4`, headers: { ...visitor, ...(range ? { range } : {}) } });
    const heightOf = async (body: Buffer, name: string) => {
      const file = path.join(t.dataDir, name);
      await writeFile(file, body);
      return parseProbe(JSON.stringify(await testMedia.engine.probe(file))).height;
    };
    const worker = createWorker(t.ctx, memoryLog()).drain();
    let video;
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/videos/${id}`, headers: visitor });
      expect([200, 404]).toContain(res.statusCode);
      if (res.statusCode === 200 && res.json().data.video.status === 'ready') {
        video = res.json().data.video;
        break;
      }
      await sleep(100);
    }
    const ready = Date.now();
    const early = await mp4(video.videoFile.publicId, 'bytes=0-1023');
    const played = Date.now();
    expect([early.statusCode, early.headers['content-type'], early.headers['content-range']]).toEqual([206, 'video/mp4', expect.stringMatching(/^bytes 0-1023\/\d+$/)]);
    expect(played - ready).toBeLessThan(1000);
    // Early indeed: the other rungs were still being made.
    expect(video.renditions.filter((r: { ready: boolean }) => r.ready).map((r: { name: string }) => r.name)).toEqual(['240p']);
    expect(await heightOf((await mp4(video.videoFile.publicId)).rawPayload, 'early.mp4')).toBe(240);

    await worker;
    const done = Date.now();
    const final = await mp4(video.videoFile.publicId, 'bytes=0-1023');
    expect([final.statusCode, final.headers['content-range']]).toEqual([206, expect.stringMatching(/^bytes 0-1023\/\d+$/)]);
    expect(final.headers.etag).not.toBe(early.headers.etag);
    expect(await heightOf((await mp4(video.videoFile.publicId)).rawPayload, 'final.mp4')).toBe(720);
    // One mp4 stored, and the quota counts exactly the files there (the first pass's mp4 was replaced, not added).
    const row = (await new VideosRepository(t.ctx.db).findRow(id))!;
    expect(await t.ctx.storage.exists(`videos/${id}/progressive.next.mp4`)).toBe(false);
    expect(await t.ctx.storage.bytesUnder(videoMediaPrefix(id))).toBe(row.mediaBytes + row.thumbnailBytes);
    await annotate(`ready ${((ready - uploaded) / 1000).toFixed(1)} s after the last chunk; mp4 206 ${played - ready} ms after ready; ladder done ${((done - ready) / 1000).toFixed(1)} s after ready`);
  }, 300_000);
});
