import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';
import { newId } from '../lib/ids.ts';

export interface JobRow {
  id: string;
  queue: string;
  payload: unknown;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

/**
 * The NOTIFY channel a due job is announced on (its queue's name as payload), delivered at commit:
 * idle workers claim at once instead of at their next poll (a creator's upload waited up to 1 s).
 */
export const JOBS_DUE_CHANNEL = 'jobs_due';

/** The durable queue on the `jobs` table; every state change is one statement. */
export class JobsRepository {
  constructor(private readonly db: Executor) {}

  /** `ownerId`: the account the job works for (fair turns between owners at claim time); `runAt`: not due before then. */
  async enqueue(queue: string, payload: object, opts: { maxAttempts?: number; ownerId?: string; runAt?: Date } = {}): Promise<string> {
    const id = newId();
    // A job due later is found by the poll; one due now is announced (once per queue and transaction).
    await this.db.execute(
      sql`WITH j AS (
            INSERT INTO jobs (id, queue, payload, max_attempts, owner_id, run_at)
            VALUES (${id}, ${queue}, ${JSON.stringify(payload)}::jsonb, ${opts.maxAttempts ?? 3}, ${opts.ownerId ?? null},
                    COALESCE(${opts.runAt?.toISOString() ?? null}::timestamptz, now()))
            RETURNING queue, run_at)
          SELECT pg_notify(${JOBS_DUE_CHANNEL}, queue) FROM j WHERE run_at <= now()`,
    );
    return id;
  }

  /**
   * Enqueues a job of a queue that works through whatever is due (one is enough): none when one is
   * already waiting. Two callers at once may add two; the job's work must allow that.
   */
  async enqueueUnlessQueued(queue: string, payload: object, maxAttempts = 3): Promise<void> {
    await this.db.execute(
      sql`WITH j AS (
            INSERT INTO jobs (id, queue, payload, max_attempts)
            SELECT ${newId()}, ${queue}, ${JSON.stringify(payload)}::jsonb, ${maxAttempts}
            WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE queue = ${queue} AND status = 'queued')
            RETURNING queue)
          SELECT pg_notify(${JOBS_DUE_CHANNEL}, queue) FROM j`,
    );
  }

  /**
   * Takes a due job, owners in turn: the owner with the fewest running jobs first, then the one
   * served longest ago (or never, in the last day), then the oldest of that owner's jobs. SKIP LOCKED
   * lets many workers claim concurrently without waiting.
   */
  async claim(queues: string[], workerId: string): Promise<JobRow | undefined> {
    const names = sql.join(queues.map((q) => sql`${q}`), sql`, `);
    const [row] = await queryRows<JobRow>(
      this.db,
      sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_at = now(), locked_by = ${workerId},
            heartbeat_at = now(), updated_at = now()
          WHERE id = (
            SELECT j.id FROM jobs j
            LEFT JOIN (
              SELECT owner_id, count(*) FILTER (WHERE status = 'running') AS running, max(locked_at) AS last_claimed
              FROM jobs
              WHERE owner_id IN (SELECT owner_id FROM jobs WHERE status = 'queued' AND run_at <= now() AND queue IN (${names}))
                AND (status = 'running' OR locked_at > now() - interval '1 day')
              GROUP BY owner_id
            ) o ON o.owner_id = j.owner_id
            WHERE j.status = 'queued' AND j.run_at <= now() AND j.queue IN (${names})
            ORDER BY coalesce(o.running, 0), o.last_claimed NULLS FIRST, j.run_at, j.id
            FOR UPDATE OF j SKIP LOCKED
            LIMIT 1)
          RETURNING id, queue, payload, status, attempts, max_attempts, last_error`,
    );
    return row;
  }

  /** False when the job is no longer this worker's (deleted, or reclaimed by another worker). */
  async heartbeat(id: string, workerId: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`UPDATE jobs SET heartbeat_at = now() WHERE id = ${id} AND locked_by = ${workerId} AND status = 'running' RETURNING id`,
    );
    return rows.length > 0;
  }

  async complete(id: string, workerId: string, result: unknown): Promise<void> {
    await this.db.execute(
      sql`UPDATE jobs SET status = 'done', result = ${JSON.stringify(result ?? null)}::jsonb, locked_by = NULL, updated_at = now()
          WHERE id = ${id} AND locked_by = ${workerId}`,
    );
  }

  /** Back to the queue after `delayMs`, or failed for good when `final`. */
  async fail(id: string, workerId: string, error: string, retry: { final: boolean; delayMs: number }): Promise<void> {
    await this.db.execute(
      sql`UPDATE jobs SET status = ${retry.final ? 'failed' : 'queued'}, last_error = ${error.slice(0, 2000)}, locked_by = NULL,
            run_at = now() + make_interval(secs => ${retry.delayMs / 1000}), updated_at = now()
          WHERE id = ${id} AND locked_by = ${workerId}`,
    );
  }

  /** Interrupted by a stopping worker: due again at once, and the attempt it was on does not count. */
  async requeue(ids: string[], workerId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE jobs SET status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = NULL, run_at = now(), updated_at = now()
          WHERE id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) AND locked_by = ${workerId} AND status = 'running'`,
    );
  }

  /**
   * Jobs whose worker stopped sending heartbeats (crashed or was killed) go back to the queue;
   * those that already used every attempt fail instead, so a job that kills its worker cannot loop.
   */
  async reclaimStale(staleSeconds: number): Promise<JobRow[]> {
    return queryRows<JobRow>(
      this.db,
      sql`UPDATE jobs SET
            status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
            last_error = 'worker stopped responding', locked_by = NULL, run_at = now(), updated_at = now()
          WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => ${staleSeconds})
          RETURNING id, queue, payload, status, attempts, max_attempts, last_error`,
    );
  }

  async findById(id: string): Promise<JobRow | undefined> {
    const [row] = await queryRows<JobRow>(
      this.db,
      sql`SELECT id, queue, payload, status, attempts, max_attempts, last_error FROM jobs WHERE id = ${id}`,
    );
    return row;
  }

  /** Cancels the video's jobs: queued ones never run, a running one is aborted at its worker's next heartbeat. */
  /** Removes a job's row (a job whose payload must not outlive its work). */
  async forget(id: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM jobs WHERE id = ${id}`);
  }

  /** Drops the video's jobs of one queue that have not started (a replaced schedule). */
  async deleteQueuedForVideo(queue: string, videoId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM jobs WHERE queue = ${queue} AND status = 'queued' AND payload ->> 'videoId' = ${videoId}`);
  }

  async deleteForVideo(videoId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM jobs WHERE payload ->> 'videoId' = ${videoId}`);
  }
}
