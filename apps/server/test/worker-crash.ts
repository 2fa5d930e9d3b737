import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { createWorker } from '../src/worker.ts';
import { JobsRepository } from '../src/jobs/jobs.repository.ts';
import { bearer, bootPersistentApp, createUser, makeClip, memoryLog, postChunk } from './harness.ts';
import { freePort, startProcess } from './processes.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function firstSegment(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((f) => f.endsWith('.m4s'));
  } catch {
    return false;
  }
}

/**
 * A worker process SIGKILLed mid-transcode leaves its job to the next worker, which completes it:
 * `npm run worker` on a PostgreSQL server, `npm start` (its embedded worker) on PGlite, whose files
 * belong to one process. Shared by the transcode tests (PGlite and PostgreSQL) and the reliability suite.
 */
export async function workerCrashScenario(dataDir: string, databaseUrl?: string): Promise<void> {
  const clip = await readFile(await makeClip(path.join(dataDir, 'long.mp4'), { width: 640, height: 360, seconds: 20 }));
  let server = await bootPersistentApp(dataDir, databaseUrl);
  const user = await createUser(server.ctx);
  const res = await postChunk(server.app, await bearer(server.ctx, user), { uniqueId: 'long', chunkNumber: 0, totalChunks: 1 }, clip, {
    isLastChunk: 'true',
    title: 'Long one',
  });
  expect(res.statusCode).toBe(201);
  const videoId: string = res.json().data.video._id;
  // PGlite keeps its files to one process at a time: hand them to the worker process.
  await server.close();

  const worker = databaseUrl
    ? startProcess('worker', { DATA_DIR: dataDir, DATABASE_URL: databaseUrl })
    : startProcess('serve', { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(await freePort()), WORKER_ENABLED: 'true' });
  // Killed during the first pass (ADR 019: the lowest rung, alone), before the video plays.
  const segments = path.join(dataDir, 'tmp', 'transcode', videoId, 'first', '240p');
  for (let i = 0; i < 1200 && !(await firstSegment(segments)); i++) await sleep(25);
  expect(await firstSegment(segments), worker.output()).toBe(true);
  await worker.kill('SIGKILL');
  expect(worker.output()).toContain('job started');
  expect(worker.output()).not.toContain('job done');

  server = await bootPersistentApp(dataDir, databaseUrl);
  try {
    const [job] = await queryRows<{ id: string; status: string; attempts: number }>(
      server.ctx.db,
      sql`SELECT id, status, attempts FROM jobs WHERE payload ->> 'videoId' = ${videoId}`,
    );
    expect(job).toMatchObject({ status: 'running', attempts: 1 });
    const auth = await bearer(server.ctx, user);
    const before = (await server.app.inject({ method: 'GET', url: `/api/v1/videos/${videoId}`, headers: auth })).json().data.video;
    expect(before.status).toBe('processing');

    // The next worker waits out the heartbeat window, takes the job back and finishes it.
    await sleep(1500);
    const log = memoryLog();
    // The transcode, then the fan-out telling its owner it is ready.
    expect(await createWorker(server.ctx, log, { staleSeconds: 1 }).drain()).toBe(2);
    expect(log.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['reclaimed job of a dead worker', 'job done']));
    expect(await new JobsRepository(server.ctx.db).findById(job!.id)).toMatchObject({ status: 'done', attempts: 2 });
    const after = (await server.app.inject({ method: 'GET', url: `/api/v1/videos/${videoId}`, headers: auth })).json().data.video;
    expect(after).toMatchObject({ status: 'ready', progress: 1 });
    expect(after.duration).toBeCloseTo(20, 0);
    expect(existsSync(path.join(dataDir, 'media', 'videos', videoId, 'hls', '360p', 'seg_00004.m4s'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'tmp', 'transcode', videoId))).toBe(false);
  } finally {
    await server.close();
  }
}
