import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipJob, type ClipSpec } from '@glimpse/media';
import type { VideoResult } from '@glimpse/contract';
import { openDatabase, queryRows, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { AccessTokens } from '../src/identity/access-token.ts';
import type { AppContext } from '../src/context.ts';
import { createUser, testMedia, TEST_ENV } from '../test/harness.ts';
import { freePort, scratchDatabase, startProcess, type ServerProcess } from '../test/processes.ts';
import { sql } from 'drizzle-orm';

/**
 * A hostile upload beside everyday ones, on a real server process with its worker: a file whose
 * last frame claims to sit ten hours in. It must neither stall the queue nor become ten hours of
 * padded frames; the other users' clips become ready and no job is left behind.
 */
let tmp: string;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: Database;
let server: ServerProcess;
let port: number;
const tokens = new AccessTokens(TEST_ENV.JWT_SECRET, 900);

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-bomb-'));
  scratch = await scratchDatabase();
  database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  await migrate(database);
  port = await freePort();
  server = startProcess('serve', {
    DATABASE_URL: scratch.url,
    DATA_DIR: path.join(tmp, 'data'),
    HOST: '127.0.0.1',
    PORT: String(port),
    WORKER_ENABLED: 'true',
    LADDER_PRESET: 'ultrafast',
    // Ten hours is allowed here: the gap itself must be neutralised, not just the length refused.
    MAX_VIDEO_MINUTES: '700',
  });
  await server.ready;
}, 60_000);
afterAll(async () => {
  await server?.kill();
  await database?.close();
  await scratch?.drop();
  await rm(tmp, { recursive: true, force: true });
});

async function upload(name: string, spec: Omit<ClipSpec, 'out'>): Promise<{ id: string; token: string }> {
  const file = path.join(tmp, name);
  await testMedia.engine.run(clipJob({ ...spec, out: file }));
  const owner = await createUser({ db: database.db } as AppContext);
  const token = await tokens.sign({ id: owner.id, userName: owner.userName });
  const form = new FormData();
  form.append('isLastChunk', 'true');
  form.append('title', name);
  form.append('video', new Blob([await readFile(file)]), name);
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/videos?uniqueId=${name.replace(/\W/g, '-')}&chunkNumber=0&totalChunks=1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { data: VideoResult };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.data.video._id, token };
}

const x264 = { codec: 'libx264', options: { preset: 'ultrafast' } };

describe('a timestamp-gap bomb beside everyday uploads', () => {
  it('finishes fast, the other clips become ready, and no job is stuck', async () => {
    const uploads = [
      await upload('bomb.mp4', { seconds: 3, width: 320, height: 240, container: 'mp4', video: x264, audio: false, videoFilter: "trim=end_frame=51,setpts='if(eq(N\\,50)\\,36000/TB\\,PTS)'" }),
      await upload('clip-a.mp4', { seconds: 3, width: 640, height: 360, container: 'mp4', video: x264 }),
      await upload('clip-b.webm', { seconds: 3, width: 640, height: 360, container: 'webm', video: { codec: 'libvpx-vp9', options: { deadline: 'realtime', 'cpu-used': '8' } }, audio: { codec: 'libopus' } }),
    ];
    const states = async () =>
      Promise.all(
        uploads.map(
          async (u) =>
            ((await (await fetch(`http://127.0.0.1:${port}/api/v1/videos/${u.id}`, { headers: { authorization: `Bearer ${u.token}` } })).json()) as { data: { video: { status: string; duration: number } } }).data.video,
        ),
      );
    // A video is ready after the job's first pass (ADR 019); the job goes on with the other rungs.
    const jobsLeft = async () =>
      (await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'transcode' AND status IN ('queued', 'running')`))[0]!.n;
    let videos = await states();
    let left = await jobsLeft();
    for (let i = 0; i < 180 && (left > 0 || videos.some((v) => v.status === 'processing')); i++) {
      await new Promise((r) => setTimeout(r, 500));
      [videos, left] = await Promise.all([states(), jobsLeft()]);
    }
    expect(videos.map((v) => v.status), server.output()).toEqual(['ready', 'ready', 'ready']);
    expect(videos[0]!.duration).toBeLessThan(5);
    expect(left).toBe(0);
  }, 150_000);
});
