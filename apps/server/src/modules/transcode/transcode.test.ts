import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { createWorker } from '../../jobs/create-worker.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import {
  bearer,
  bootPersistentApp,
  createUser,
  engine,
  freshDatabase,
  makeClip,
  memoryLog,
  postChunk,
  TEST_ENV,
} from '../../../test/harness.ts';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dataDir: string;
let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-kill-'));
  fresh = engine === 'pg' ? await freshDatabase() : undefined;
  await fresh?.database.close();
});
afterAll(async () => {
  await fresh?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

async function firstSegment(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((f) => f.endsWith('.m4s'));
  } catch {
    return false;
  }
}

describe('worker crash', () => {
  it('a worker process killed mid-transcode leaves the job to the next worker, which completes it', async () => {
    const clip = await readFile(await makeClip(path.join(dataDir, 'long.mp4'), { width: 640, height: 360, seconds: 20 }));
    let server = await bootPersistentApp(dataDir, fresh?.url);
    const user = await createUser(server.ctx);
    const res = await postChunk(server.app, await bearer(server.ctx, user), { uniqueId: 'long', chunkNumber: 0, totalChunks: 1 }, clip, {
      isLastChunk: 'true',
      title: 'Long one',
    });
    expect(res.statusCode).toBe(201);
    const videoId: string = res.json().data._id;
    // PGlite keeps its files to one process at a time: hand them to the worker process.
    await server.close();

    // `npm run worker`, as its own process group so ffmpeg dies with it.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...TEST_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...(fresh ? { DATABASE_URL: fresh.url } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((r) => child.once('exit', r));
    const segments = path.join(dataDir, 'tmp', 'transcode', videoId, 'out', 'v0');
    for (let i = 0; i < 1200 && !(await firstSegment(segments)); i++) await sleep(25);
    expect(await firstSegment(segments), output).toBe(true);
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    expect(output).toContain('job started');
    expect(output).not.toContain('job done');

    server = await bootPersistentApp(dataDir, fresh?.url);
    try {
      const [job] = await queryRows<{ id: string; status: string; attempts: number }>(
        server.ctx.db,
        sql`SELECT id, status, attempts FROM jobs WHERE payload ->> 'videoId' = ${videoId}`,
      );
      expect(job).toMatchObject({ status: 'running', attempts: 1 });
      const before = (await server.app.inject({ method: 'GET', url: `/api/v1/videos/${videoId}`, headers: await bearer(server.ctx, user) })).json().data;
      expect(before.status).toBe('processing');

      // The next worker waits out the heartbeat window, takes the job back and finishes it.
      await sleep(1500);
      const log = memoryLog();
      expect(await createWorker(server.ctx, log, { staleSeconds: 1 }).drain()).toBe(1);
      expect(log.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['reclaimed job of a dead worker', 'job done']));
      expect(await new JobsRepository(server.ctx.db).findById(job!.id)).toMatchObject({ status: 'done', attempts: 2 });
      const after = (await server.app.inject({ method: 'GET', url: `/api/v1/videos/${videoId}`, headers: await bearer(server.ctx, user) })).json().data;
      expect(after).toMatchObject({ status: 'ready', progress: 1 });
      expect(after.duration).toBeCloseTo(20, 0);
      expect(existsSync(path.join(dataDir, 'media', 'videos', videoId, 'hls', 'v1', 'seg_00004.m4s'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'tmp', 'transcode', videoId))).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);
});
