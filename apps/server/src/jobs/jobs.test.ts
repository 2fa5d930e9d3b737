import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { bearer, createTestApp, createUser, createVideo, memoryLog, type TestContext } from '../../test/harness.ts';
import { BLOCKING_QUEUE, blockingHandler } from '../../test/blocking-job.ts';
import { TRANSCODE_QUEUE } from '../modules/transcode/queue.ts';
import { createWorker } from '../worker.ts';
import { JobsRepository } from './jobs.repository.ts';
import { Worker, type JobHandler, type JobLogger } from './worker.ts';

let t: TestContext;
let jobs: JobsRepository;
beforeAll(async () => {
  t = await createTestApp();
  jobs = new JobsRepository(t.ctx.db);
});
afterAll(() => t.close());

/** Makes every job of the queue due now (backoff delays are real timestamps). */
const makeDue = () => t.ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE status = 'queued'`);

const dueIn = (id: string) =>
  queryRows<{ s: number }>(t.ctx.db, sql`SELECT extract(epoch FROM run_at - now())::float8 AS s FROM jobs WHERE id = ${id}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds (or the time is up); returns the milliseconds it took. */
async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
  return Date.now() - started;
}

const statusOf = async (ids: string[]) => Promise.all(ids.map(async (id) => (await jobs.findById(id))?.status));

/** The blocking handler (runs until aborted), counting the jobs it is running now and the reasons it was stopped. */
function blockingRecorder() {
  const running = new Set<string>();
  const aborted: string[] = [];
  const handler: JobHandler<object> = {
    run: async (payload, job) => {
      running.add(job.jobId);
      try {
        return await blockingHandler.run(payload, job);
      } catch (err) {
        aborted.push((err as Error).message);
        throw err;
      } finally {
        running.delete(job.jobId);
      }
    },
    onFailed: async () => {},
  };
  return { running, aborted, handler: handler as JobHandler<never> };
}

function recorder(behaviour: (n: number) => Promise<unknown>) {
  const calls: number[] = [];
  const failed: string[] = [];
  const handler: JobHandler<{ n: number }> = {
    run: async ({ n }, job) => {
      calls.push(job.attempt);
      return behaviour(n);
    },
    onFailed: async ({ n }, reason) => void failed.push(`${n}: ${reason}`),
  };
  return { calls, failed, handler };
}

describe('job queue', () => {
  it('claims each job once, even with two workers asking at the same time', async () => {
    const q = `q-${Date.now()}`;
    await jobs.enqueue(q, { n: 1 });
    await jobs.enqueue(q, { n: 2 });
    const [a, b, c] = await Promise.all([jobs.claim([q], 'w1'), jobs.claim([q], 'w2'), jobs.claim([q], 'w3')]);
    const claimed = [a, b, c].filter(Boolean);
    expect(claimed).toHaveLength(2);
    expect(new Set(claimed.map((j) => j!.id)).size).toBe(2);
    expect(claimed.every((j) => j!.status === 'running' && j!.attempts === 1)).toBe(true);
  });

  it('runs a job to done and records its result', async () => {
    const r = recorder(async (n) => ({ doubled: n * 2 }));
    const log = memoryLog();
    const worker = new Worker(t.ctx.db, { ok: r.handler as JobHandler<never> }, { log });
    const id = await jobs.enqueue('ok', { n: 21, videoId: 'v-1' });
    expect(await worker.drain()).toBe(1);
    expect(await jobs.findById(id)).toMatchObject({ status: 'done', attempts: 1 });
    const [row] = await queryRows<{ result: unknown }>(t.ctx.db, sql`SELECT result FROM jobs WHERE id = ${id}`);
    expect(row!.result).toEqual({ doubled: 42 });
    // Logs carry the job and the video ids.
    expect(log.lines.find((l) => l.msg === 'job done')?.obj).toMatchObject({ jobId: id, videoId: 'v-1', queue: 'ok' });
  });

  it('retries with exponential backoff, then fails for good and writes the failure state first', async () => {
    const r = recorder(async () => {
      throw new Error('boom');
    });
    const worker = new Worker(t.ctx.db, { flaky: r.handler as JobHandler<never> }, { log: memoryLog(), backoffMs: 60_000 });
    const id = await jobs.enqueue('flaky', { n: 7 }, { maxAttempts: 3 });
    await worker.drain();
    let job = await jobs.findById(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: 'boom' });
    // Not due yet: the first retry waits backoffMs.
    expect(await worker.drain()).toBe(0);
    const [delay] = await dueIn(id);
    expect(delay!.s).toBeGreaterThan(50);
    await makeDue();
    await worker.drain();
    const [delay2] = await dueIn(id);
    expect(delay2!.s).toBeGreaterThan(110); // doubled
    expect(r.failed).toEqual([]);
    await makeDue();
    await worker.drain();
    job = await jobs.findById(id);
    expect(job).toMatchObject({ status: 'failed', attempts: 3, last_error: 'boom' });
    expect(r.calls).toEqual([1, 2, 3]);
    expect(r.failed).toEqual(['7: boom']);
  });

  it('takes back a job whose worker stopped sending heartbeats', async () => {
    const r = recorder(async () => 'ok');
    const worker = new Worker(t.ctx.db, { stale: r.handler as JobHandler<never> }, { log: memoryLog(), staleSeconds: 30 });
    const id = await jobs.enqueue('stale', { n: 1 });
    await jobs.claim(['stale'], 'dead-worker');
    // A fresh heartbeat: left alone.
    expect(await worker.drain()).toBe(0);
    await t.ctx.db.execute(sql`UPDATE jobs SET heartbeat_at = now() - interval '31 seconds' WHERE id = ${id}`);
    expect(await worker.drain()).toBe(1);
    expect(await jobs.findById(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('fails a stale job that has no attempt left, through the handler', async () => {
    const r = recorder(async () => 'never');
    const worker = new Worker(t.ctx.db, { dead: r.handler as JobHandler<never> }, { log: memoryLog(), staleSeconds: 30 });
    const id = await jobs.enqueue('dead', { n: 9 }, { maxAttempts: 1 });
    await jobs.claim(['dead'], 'dead-worker');
    await t.ctx.db.execute(sql`UPDATE jobs SET heartbeat_at = now() - interval '1 minute' WHERE id = ${id}`);
    await worker.drain();
    expect(await jobs.findById(id)).toMatchObject({ status: 'failed', last_error: 'worker stopped responding' });
    expect(r.failed).toEqual(['9: worker stopped responding']);
    expect(r.calls).toEqual([]);
  });

  it('runs in the background when started and stops cleanly', async () => {
    const r = recorder(async () => 'ok');
    const maintenance: number[] = [];
    const worker = new Worker(
      t.ctx.db,
      { bg: r.handler as JobHandler<never> },
      { log: memoryLog(), pollMs: 20, maintenance: async () => void maintenance.push(1), maintenanceMs: 60_000 },
    );
    worker.start();
    const id = await jobs.enqueue('bg', { n: 1 });
    for (let i = 0; i < 200 && (await jobs.findById(id))?.status !== 'done'; i++) await new Promise((res) => setTimeout(res, 20));
    await worker.stop();
    expect((await jobs.findById(id))?.status).toBe('done');
    expect(maintenance).toEqual([1]);
  });

  it('claims a job enqueued as due at once, not at its next poll; one due later waits for the poll', async () => {
    const r = recorder(async () => 'ok');
    const worker = new Worker(t.ctx.db, { woken: r.handler as JobHandler<never> }, { log: memoryLog(), pollMs: 60_000, listen: t.ctx.database.listen });
    await worker.start();
    try {
      // The lane has found nothing and sleeps for a minute: only the announcement can wake it.
      await sleep(100);
      const later = await jobs.enqueue('woken', { n: 1 }, { runAt: new Date(Date.now() + 200) });
      await sleep(500);
      expect((await jobs.findById(later))?.status).toBe('queued');
      // Enqueued in a transaction: announced at its commit, when the worker can claim it.
      const id = await t.ctx.db.transaction((tx) => new JobsRepository(tx).enqueue('woken', { n: 2 }));
      await waitUntil(async () => (await jobs.findById(id))?.status === 'done', 3000);
      // The lane went on claiming after the announced job: the one that fell due meanwhile ran too.
      await waitUntil(async () => (await jobs.findById(later))?.status === 'done', 3000);
    } finally {
      await worker.stop();
    }
  });
});

describe('fair turns between owners', () => {
  it("runs owner B's one job second, not after all five of owner A's (concurrency 1)", async () => {
    const q = `fair-${Date.now()}`;
    const [a, b] = [await createUser(t.ctx), await createUser(t.ctx)];
    const order: string[] = [];
    const handler: JobHandler<{ label: string }> = { run: async ({ label }) => void order.push(label), onFailed: async () => {} };
    for (let i = 1; i <= 5; i++) await jobs.enqueue(q, { label: `A${i}` }, { ownerId: a.id });
    await jobs.enqueue(q, { label: 'B1' }, { ownerId: b.id });
    const worker = new Worker(t.ctx.db, { [q]: handler as JobHandler<never> }, { log: memoryLog(), concurrency: 1 });
    expect(await worker.drain()).toBe(6);
    expect(order).toEqual(['A1', 'B1', 'A2', 'A3', 'A4', 'A5']);
  });

  it('takes the owner with no running job before one whose job is running elsewhere', async () => {
    const q = `fair-running-${Date.now()}`;
    const [a, b] = [await createUser(t.ctx), await createUser(t.ctx)];
    // B was served more recently than A, but A has a job running on another worker.
    await jobs.enqueue(q, { n: 1 }, { ownerId: a.id });
    await jobs.enqueue(q, { n: 2 }, { ownerId: a.id });
    await jobs.enqueue(q, { n: 3 }, { ownerId: b.id });
    await jobs.enqueue(q, { n: 4 }, { ownerId: b.id });
    expect(await jobs.claim([q], 'other-worker')).toMatchObject({ payload: { n: 1 } });
    const b1 = await jobs.claim([q], 'other-worker');
    expect(b1).toMatchObject({ payload: { n: 3 } });
    await jobs.complete(b1!.id, 'other-worker', null);
    expect(await jobs.claim([q], 'w')).toMatchObject({ payload: { n: 4 } });
  });
});

describe('WORKER_CONCURRENCY', () => {
  it('runs that many long jobs at once per worker, and no more; short jobs still run beside them', async () => {
    const t2 = await createTestApp({ WORKER_CONCURRENCY: '2' });
    try {
      const r = blockingRecorder();
      const repo = new JobsRepository(t2.ctx.db);
      const ids = [await repo.enqueue(BLOCKING_QUEUE, {}), await repo.enqueue(BLOCKING_QUEUE, {}), await repo.enqueue(BLOCKING_QUEUE, {})];
      const done: string[] = [];
      const short: JobHandler<object> = { run: async (_p, job) => void done.push(job.jobId), onFailed: async () => {} };
      // The blocking queue stands for transcodes: a long queue, which the short lane never takes.
      const worker = createWorker(t2.ctx, memoryLog(), { handlers: { [BLOCKING_QUEUE]: r.handler, short }, pollMs: 20, longQueues: [BLOCKING_QUEUE] });
      worker.start();
      await waitUntil(() => r.running.size === 2);
      await sleep(300);
      expect(r.running.size).toBe(2);
      const statuses = await Promise.all(ids.map(async (id) => (await repo.findById(id))?.status));
      expect(statuses.sort()).toEqual(['queued', 'running', 'running']);
      // Both lanes are busy with long jobs: a mail or a notification still goes out.
      const mail = await repo.enqueue('short', {});
      await waitUntil(() => done.includes(mail));
      expect(r.running.size).toBe(2);
      await worker.stop();
    } finally {
      await t2.close();
    }
  });
});

describe('stopping the worker', () => {
  it('aborts running jobs and puts them back in the queue without using up an attempt', async () => {
    const r = blockingRecorder();
    const q = `stop-${Date.now()}`;
    const ids = [await jobs.enqueue(q, {}), await jobs.enqueue(q, {})];
    const worker = new Worker(t.ctx.db, { [q]: r.handler }, { log: memoryLog(), concurrency: 2, pollMs: 20 });
    worker.start();
    await waitUntil(() => r.running.size === 2);
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(r.aborted).toEqual(['the worker is stopping', 'the worker is stopping']);
    for (const id of ids) expect(await jobs.findById(id)).toMatchObject({ status: 'queued', attempts: 0 });
    // Due at once: the next worker takes them.
    const next = blockingRecorder();
    const again = new Worker(t.ctx.db, { [q]: next.handler }, { log: memoryLog(), concurrency: 2, pollMs: 20 });
    again.start();
    await waitUntil(() => next.running.size === 2);
    await again.stop();
  });

  it('requeues a job whose handler ignores its signal once the grace time is over', async () => {
    const q = `stubborn-${Date.now()}`;
    const stubborn: JobHandler<object> = { run: () => sleep(3000), onFailed: async () => {} };
    const id = await jobs.enqueue(q, {});
    const log = memoryLog();
    const worker = new Worker(t.ctx.db, { [q]: stubborn as JobHandler<never> }, { log, pollMs: 20, stopGraceMs: 200 });
    worker.start();
    await waitUntil(async () => (await jobs.findById(id))?.status === 'running');
    const started = Date.now();
    await worker.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await jobs.findById(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(log.lines.map((l) => l.msg)).toContain('jobs still running at stop were requeued');
    // When the stubborn handler does return, it does not mark the requeued job done.
    await sleep(3000);
    expect(await jobs.findById(id)).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

describe('cancelling a job', () => {
  async function deleteVideo(videoId: string, owner: { id: string; userName: string }) {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/videos/${videoId}`, headers: await bearer(t.ctx, owner) });
    expect(res.statusCode).toBe(200);
  }

  it("deleting a video aborts its running transcode job at the next heartbeat and drops its queued one", async () => {
    const owner = await createUser(t.ctx);
    const running = await createVideo(t.ctx, owner, { status: 'processing', privacy: 'private' });
    const queued = await createVideo(t.ctx, owner, { status: 'processing', privacy: 'private' });
    const runningJob = await jobs.enqueue(TRANSCODE_QUEUE, { videoId: running.id }, { ownerId: owner.id });
    const queuedJob = await jobs.enqueue(TRANSCODE_QUEUE, { videoId: queued.id }, { ownerId: owner.id });
    // The real worker with a transcode handler that runs until its signal aborts.
    const r = blockingRecorder();
    const log = memoryLog();
    const worker = createWorker(t.ctx, log, { handlers: { [TRANSCODE_QUEUE]: r.handler }, concurrency: 1, pollMs: 20, heartbeatMs: 200 });
    worker.start();
    try {
      await waitUntil(() => r.running.size === 1);
      expect(await statusOf([runningJob, queuedJob])).toEqual(['running', 'queued']);

      await deleteVideo(queued.id, owner);
      expect(await jobs.findById(queuedJob)).toBeUndefined();
      await deleteVideo(running.id, owner);
      const took = await waitUntil(() => r.aborted.length === 1, 3000);
      expect(took).toBeLessThan(1000);
      expect(r.aborted).toEqual(['the job was cancelled (deleted, or taken over by another worker)']);
      expect(await jobs.findById(runningJob)).toBeUndefined();
      await waitUntil(() => log.lines.some((l) => l.msg === 'job cancelled' && l.obj.videoId === running.id));
      // Nothing failed, nothing was left to run.
      expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(r.running.size).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('aborts a job another worker has taken back (its heartbeat finds the row no longer ours)', async () => {
    const r = blockingRecorder();
    const q = `lost-${Date.now()}`;
    const id = await jobs.enqueue(q, {});
    const worker = new Worker(t.ctx.db, { [q]: r.handler }, { log: memoryLog() as JobLogger, pollMs: 20, heartbeatMs: 100 });
    worker.start();
    await waitUntil(() => r.running.size === 1);
    await t.ctx.db.execute(sql`UPDATE jobs SET locked_by = 'another-worker' WHERE id = ${id}`);
    await waitUntil(() => r.aborted.length === 1, 2000);
    await worker.stop();
    // The other worker's claim stands.
    expect(await jobs.findById(id)).toMatchObject({ status: 'running' });
  });
});
