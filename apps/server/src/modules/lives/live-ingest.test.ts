import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, createUser, memoryLog, TINY_PNG, type TestContext } from '../../../test/harness.ts';
import { newId } from '../../lib/ids.ts';
import { call } from '../../../test/http.ts';
import { SERVER_DIR } from '../../../test/processes.ts';
import type { UserRow } from '../users/users.repository.ts';
import { createWorker } from '../../worker.ts';
import { LiveIngest, type EndedSession } from './live-ingest.ts';
import { saveReplay } from './live-replay.ts';

const PUSHER = path.join(SERVER_DIR, 'test/rtmp-push.ts');

/** Pushes test media with the bundled engine, as OBS would; resolves with the pusher's exit code. */
function push(url: string, seconds: number, codec: 'h264' | 'flv1' = 'h264'): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PUSHER, url, String(seconds), codec], { cwd: SERVER_DIR, stdio: 'ignore' });
    child.on('close', (code) => resolve(code ?? -1));
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('live ingest (real RTMP from the bundled engine)', () => {
  let t: TestContext;
  let ingest: LiveIngest;
  let base: string;
  let owner: UserRow;
  let other: UserRow;
  const log = memoryLog();
  const ended: EndedSession[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    other = await createUser(t.ctx);
    await t.ctx.settings.update({ livesEnabled: true, maxLivesPerUser: 1, maxLivesPerInstance: 3 });
    ingest = new LiveIngest(t.ctx, { log, segmentSeconds: 1, listSize: 10, threads: 1, idleSeconds: 10, onSessionEnd: async (s) => {
        ended.push(s);
        await saveReplay(t.ctx, s);
      },
    });
    base = `rtmp://127.0.0.1:${await ingest.listen(0, '127.0.0.1')}/live`;
  });
  afterAll(async () => {
    await ingest.stop();
    await t.close();
  });

  const create = async (as: UserRow, body: object = {}) => (await call(t, 'POST', '/lives', { as, body: { title: 'On air', ...body } })).body.data as { live: { _id: string }; streamKey: string };
  const state = async (id: string) => (await call(t, 'GET', `/lives/${id}`)).body.data;
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('plays a pushed stream as live HLS while wrong keys, garbage, a wrong codec and a live over the cap are refused, then saves its replay', async () => {
    const a = await create(owner, { saveReplay: true });
    // Long enough to outlast the refused pushes below on a loaded machine (each starts a process).
    const pushing = push(`${base}/${a.streamKey}`, 14);

    const master = await until('the live to start', async () => (await state(a.live._id)).hlsUrl ?? undefined);
    const playlistUrl = master.replace('master.m3u8', 'source/index.m3u8');
    const first = await until('the first segment', async () => {
      const res = await get(playlistUrl);
      return res.statusCode === 200 && res.body.includes('seg_') ? res : undefined;
    });
    expect(first.headers['cache-control']).toBe('public, max-age=1');
    // The player asking for the playlist is a viewer (one, however often it asks).
    expect((await state(a.live._id)).viewers).toBe(1);
    expect(first.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(first.body).toMatch(/#EXT-X-TARGETDURATION:[12]\n/);
    const masterText = (await get(master)).body;
    expect(masterText).toContain('source/index.m3u8');
    expect(masterText).toContain('360p/index.m3u8');
    const segment = await get(playlistUrl.replace('index.m3u8', first.body.match(/seg_\d{6}\.ts/)![0]));
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(segment.rawPayload[0]).toBe(0x47); // an MPEG-TS sync byte
    await until('the lower rung', async () => ((await get(master.replace('master.m3u8', '360p/index.m3u8'))).body.includes('seg_') ? true : undefined));

    // While A is on air: a wrong key, garbage, a codec we do not take, and the owner's second live.
    expect(await push(`${base}/${a.live._id}.not-the-key`, 1)).not.toBe(0);
    const garbage = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(Buffer.alloc(4000, 0x41)));
      socket.on('close', () => resolve('closed'));
      socket.on('error', () => undefined);
    });
    expect(garbage).toBe('closed');
    const b = await create(other);
    expect(await push(`${base}/${b.streamKey}`, 2, 'flv1')).not.toBe(0);
    const second = await create(owner);
    // On failure, the ingest's log says what happened to the sessions.
    expect(await push(`${base}/${second.streamKey}`, 1), JSON.stringify(log.lines)).not.toBe(0);
    const refusals = log.lines.filter((l) => l.msg === 'rtmp publish refused').map((l) => l.obj.reason);
    expect(refusals).toEqual(expect.arrayContaining(['Invalid stream key', 'You can have 1 live on air at a time']));
    expect(log.lines.some((l) => l.msg === 'rtmp connection refused' && l.obj.reason === 'not an RTMP handshake')).toBe(true);
    // The refused codec ended its session without a segment: B waits, unharmed, for a real stream.
    await until('B to be given back', async () => ((await state(b.live._id)).state === 'waiting' ? true : undefined));
    expect(ended.map((e) => e.reason)).toContain('video codec must be H.264');

    // A went on through all of it.
    expect((await state(a.live._id)).state).toBe('live');
    const later = (await get(playlistUrl)).body;
    expect(later.match(/seg_\d{6}\.ts/g)!.length).toBeGreaterThan(first.body.match(/seg_\d{6}\.ts/g)!.length);

    expect(await pushing).toBe(0);
    await until('A to end', async () => ((await state(a.live._id)).state === 'ended' ? true : undefined));
    expect((await state(a.live._id)).viewers).toBeNull();
    const session = ended.find((e) => e.live.id === a.live._id)!;
    expect(session.recording).toMatch(/recording\.mkv$/);
    // The last playlist tells players still on it that the live is over.
    expect((await get(playlistUrl)).body).toContain('#EXT-X-ENDLIST');

    // The replay: a private video through the uploads' transcode, ready once the worker has run.
    const replayId = await until('the replay', async () => (await call(t, 'GET', `/lives/${a.live._id}`, { as: owner })).body.data.replayVideoId ?? undefined);
    expect(await createWorker(t.ctx, memoryLog()).drain()).toBeGreaterThanOrEqual(1);
    const video = (await call(t, 'GET', `/videos/${replayId}`, { as: owner })).body.data.video;
    expect(video).toMatchObject({ title: 'On air', status: 'ready', isPublished: false });
    expect(video.duration).toBeGreaterThan(6);
    expect((await call(t, 'GET', `/videos/${replayId}`)).status).toBe(404);
    // Named to its owner only until it is published (a link to a 404 otherwise).
    expect((await state(a.live._id)).replayVideoId).toBeNull();
    expect((await call(t, 'PATCH', `/videos/${replayId}/publish`, { as: owner, body: { isPublished: true } })).status).toBe(200);
    expect((await state(a.live._id)).replayVideoId).toBe(replayId);
  });

  it('cuts a low-latency live into 1 s segments, the lower rungs\' keyframes and the playlist target with them, whatever the normal length; a session replaces the last one\'s files, not the thumbnail', async () => {
    const slow = new LiveIngest(t.ctx, { log, segmentSeconds: 3, threads: 1 });
    try {
      const url = `rtmp://127.0.0.1:${await slow.listen(0, '127.0.0.1')}/live`;
      const low = await create(owner, { latencyMode: 'low' });
      const image = new FormData();
      image.append('image', new Blob([TINY_PNG]), 'poster.png');
      const thumbnail = (await call(t, 'PUT', `/lives/${low.live._id}/thumbnail`, { as: owner, body: image })).body.data.thumbnail as string;
      // What an earlier session of this live left in storage.
      const earlier = newId();
      await t.ctx.db.execute(sql`UPDATE lives SET session_id = ${earlier} WHERE id = ${low.live._id}`);
      await t.ctx.storage.putBuffer(`lives/${low.live._id}/${earlier}/360p/seg_000001.ts`, Buffer.alloc(100));
      const pushing = push(`${url}/${low.streamKey}`, 6);
      const master = await until('the live to start', async () => (await state(low.live._id)).hlsUrl ?? undefined);
      const rung = await until('three segments of the 360p rung', async () => {
        const body = (await get(master.replace('master.m3u8', '360p/index.m3u8'))).body;
        return (body.match(/seg_\d{6}\.ts/g) ?? []).length >= 3 ? body : undefined;
      });
      expect(rung).toContain('#EXT-X-TARGETDURATION:1\n');
      const lengths = [...rung.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
      for (const seconds of lengths.slice(0, -1)) expect(seconds).toBeCloseTo(1, 1);
      expect(await t.ctx.storage.bytesUnder(`lives/${low.live._id}/${earlier}/`)).toBe(0);
      expect((await get(thumbnail)).statusCode).toBe(200);
      expect(await pushing).toBe(0);
    } finally {
      await slow.stop();
    }
  });

  it('ends a session whose first files the storage refuses, and goes on: the live waits again, the process stays up', async () => {
    const live = await create(owner);
    // The storage's one failure: S3 answering 503 to the session's master playlist.
    const put = vi.spyOn(t.ctx.storage, 'putBuffer').mockRejectedValueOnce(new Error('S3 answered 503'));
    try {
      await push(`${base}/${live.streamKey}`, 3);
      const line = await until('the session to end', async () => log.lines.find((l) => l.msg === 'live session ended' && l.obj.liveId === live.live._id));
      expect(line.obj.reason).toBe('the session could not start: S3 answered 503');
      // Nothing aired: a one-off live is not used up, and the next session may start.
      expect(await state(live.live._id)).toMatchObject({ state: 'waiting', hlsUrl: null });
    } finally {
      put.mockRestore();
    }
  });
});
