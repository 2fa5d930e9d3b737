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

/** The durable queue on the `jobs` table; every state change is one statement. */
export class JobsRepository {
  constructor(private readonly db: Executor) {}

  async enqueue(queue: string, payload: object, opts: { maxAttempts?: number } = {}): Promise<string> {
    const id = newId();
    await this.db.execute(
      sql`INSERT INTO jobs (id, queue, payload, max_attempts) VALUES (${id}, ${queue}, ${JSON.stringify(payload)}::jsonb, ${opts.maxAttempts ?? 3})`,
    );
    return id;
  }

  /** Takes the oldest due job; SKIP LOCKED lets many workers claim concurrently without waiting. */
  async claim(queues: string[], workerId: string): Promise<JobRow | undefined> {
    const [row] = await queryRows<JobRow>(
      this.db,
      sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_at = now(), locked_by = ${workerId},
            heartbeat_at = now(), updated_at = now()
          WHERE id = (
            SELECT id FROM jobs
            WHERE status = 'queued' AND run_at <= now() AND queue IN (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
            ORDER BY run_at, id
            FOR UPDATE SKIP LOCKED
            LIMIT 1)
          RETURNING id, queue, payload, status, attempts, max_attempts, last_error`,
    );
    return row;
  }

  async heartbeat(id: string, workerId: string): Promise<void> {
    await this.db.execute(sql`UPDATE jobs SET heartbeat_at = now() WHERE id = ${id} AND locked_by = ${workerId} AND status = 'running'`);
  }

  async complete(id: string, result: unknown): Promise<void> {
    await this.db.execute(
      sql`UPDATE jobs SET status = 'done', result = ${JSON.stringify(result ?? null)}::jsonb, locked_by = NULL, updated_at = now() WHERE id = ${id}`,
    );
  }

  /** Back to the queue after `delayMs`, or failed for good when `final`. */
  async fail(id: string, error: string, retry: { final: boolean; delayMs: number }): Promise<void> {
    await this.db.execute(
      sql`UPDATE jobs SET status = ${retry.final ? 'failed' : 'queued'}, last_error = ${error.slice(0, 2000)}, locked_by = NULL,
            run_at = now() + make_interval(secs => ${retry.delayMs / 1000}), updated_at = now()
          WHERE id = ${id}`,
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

  async deleteForVideo(videoId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM jobs WHERE payload ->> 'videoId' = ${videoId} AND status <> 'running'`);
  }
}
