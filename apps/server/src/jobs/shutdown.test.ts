import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKING_QUEUE } from '../../test/blocking-job.ts';
import { bootPersistentApp, engine, freshDatabase } from '../../test/harness.ts';
import { freePort, startProcess, type ServerProcess } from '../../test/processes.ts';
import { JobsRepository } from './jobs.repository.ts';

/**
 * SIGTERM stops `npm start` and `npm run worker` within 10 s: no new jobs, the running one aborted
 * and requeued without using up an attempt, the HTTP server and the database closed. Real processes
 * (test/fixtures/cli-with-blocking-jobs.ts: the CLI plus a queue whose jobs run until aborted).
 */
const ENTRY = 'test/fixtures/cli-with-blocking-jobs.ts';
let tmp: string;
let fresh: Awaited<ReturnType<typeof freshDatabase>> | undefined;
const running: ServerProcess[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-shutdown-'));
  fresh = engine === 'pg' ? await freshDatabase() : undefined;
  await fresh?.database.close();
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGKILL')));
  await fresh?.drop();
  await rm(tmp, { recursive: true, force: true });
});

const databaseEnv = (): Record<string, string> => (fresh?.url ? { DATABASE_URL: fresh.url } : {});

/** Opens the data like a server would (PGlite files are free while no process runs), does `fn`, closes. */
async function withData<T>(dataDir: string, fn: (jobs: JobsRepository) => Promise<T>): Promise<T> {
  const app = await bootPersistentApp(dataDir, fresh?.url);
  try {
    return await fn(new JobsRepository(app.ctx.db));
  } finally {
    await app.close();
  }
}

/** SIGTERM while a job blocks; resolves with how long the process took to exit and its code. */
async function terminateWhileBlocked(proc: ServerProcess): Promise<{ ms: number; code: number | null }> {
  running.push(proc);
  await proc.ready;
  for (let i = 0; i < 600 && !proc.output().includes('blocking job waits for its signal'); i++) await new Promise((r) => setTimeout(r, 25));
  expect(proc.output()).toContain('blocking job waits for its signal');
  const started = Date.now();
  const code = await proc.kill('SIGTERM');
  return { ms: Date.now() - started, code };
}

describe('SIGTERM', () => {
  it('stops `npm start` within 10 s, requeueing its running job and closing HTTP and the database', async () => {
    const dataDir = path.join(tmp, 'serve');
    const jobId = await withData(dataDir, (jobs) => jobs.enqueue(BLOCKING_QUEUE, {}));
    const port = await freePort();
    const server = startProcess('serve', { ...databaseEnv(), DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), WORKER_ENABLED: 'true' }, [], ENTRY);
    await server.ready;
    // A client connection kept alive does not hold the shutdown up.
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) =>
      request({ port, host: '127.0.0.1', path: '/api/v1/health', agent }, (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end(),
    );
    const { ms, code } = await terminateWhileBlocked(server);
    agent.destroy();
    expect(code, server.output()).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(server.output()).toContain('job requeued: the worker is stopping');
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    // The embedded database was closed properly: its lock is released.
    if (!fresh) expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
    expect(await withData(dataDir, (jobs) => jobs.findById(jobId))).toMatchObject({ status: 'queued', attempts: 0 });
  }, 120_000);

  // `npm run worker` needs a PostgreSQL server (the embedded database belongs to the server process):
  // run where the suite has one.
  for (const command of engine === 'pg' ? (['worker'] as const) : []) {
    it(`stops \`npm run ${command}\` within 10 s, requeueing its running job`, async () => {
      const dataDir = path.join(tmp, command);
      const jobId = await withData(dataDir, (jobs) => jobs.enqueue(BLOCKING_QUEUE, {}));
      const worker = startProcess(command, { ...databaseEnv(), DATA_DIR: dataDir }, [], ENTRY);
      const { ms, code } = await terminateWhileBlocked(worker);
      expect(code, worker.output()).toBe(0);
      expect(ms).toBeLessThan(10_000);
      expect(worker.output()).toContain('job requeued: the worker is stopping');
      expect(await withData(dataDir, (jobs) => jobs.findById(jobId))).toMatchObject({ status: 'queued', attempts: 0 });
    }, 120_000);
  }
});
