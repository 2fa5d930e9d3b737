import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { createTestApp, memoryLog, type TestContext } from '../../test/harness.ts';
import { JobsRepository } from './jobs.repository.ts';
import { Worker, type JobHandler } from './worker.ts';

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
});
