import { hostname } from 'node:os';
import type { Executor } from '../db/client.ts';
import { newId } from '../lib/ids.ts';
import { JobsRepository, type JobRow } from './jobs.repository.ts';

export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobContext {
  jobId: string;
  attempt: number;
  /** Tells the queue this job is alive (called by the worker on a timer too). */
  heartbeat(): Promise<void>;
  log: JobLogger;
}

/** A failure another attempt would repeat (a file the engine cannot process): no retry. */
export class PermanentJobError extends Error {}

export interface JobHandler<P = unknown> {
  run(payload: P, job: JobContext): Promise<unknown>;
  /** Writes the domain's failure state (e.g. video failed) once no attempt is left. */
  onFailed(payload: P, reason: string, log: JobLogger): Promise<void>;
}

export interface WorkerOptions {
  pollMs?: number;
  heartbeatMs?: number;
  /** A running job without heartbeat for this long is taken to have lost its worker. */
  staleSeconds?: number;
  /** First retry delay; doubles with each attempt. */
  backoffMs?: number;
  concurrency?: number;
  /** Housekeeping run at most every `maintenanceMs` from the loop (upload sweeper, view cleanup). */
  maintenance?: () => Promise<void>;
  maintenanceMs?: number;
  log: JobLogger;
}

/** Pulls jobs from the PostgreSQL queue; runs in the server process or as `npm run worker`. */
export class Worker {
  readonly id = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly jobs: JobsRepository;
  private readonly opts: Required<Omit<WorkerOptions, 'maintenance'>> & Pick<WorkerOptions, 'maintenance'>;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private lastMaintenance = 0;

  constructor(
    db: Executor,
    private readonly handlers: Record<string, JobHandler<never>>,
    opts: WorkerOptions,
  ) {
    this.jobs = new JobsRepository(db);
    this.opts = { pollMs: 1000, heartbeatMs: 5000, staleSeconds: 60, backoffMs: 10_000, concurrency: 1, maintenanceMs: 60_000, ...opts };
  }

  /** Runs housekeeping if due, reclaims stale jobs, then runs one job; false when nothing was due. */
  async runOnce(): Promise<boolean> {
    if (this.opts.maintenance && Date.now() - this.lastMaintenance >= this.opts.maintenanceMs) {
      this.lastMaintenance = Date.now();
      await this.opts.maintenance();
    }
    for (const job of await this.jobs.reclaimStale(this.opts.staleSeconds)) {
      this.opts.log.info({ jobId: job.id, queue: job.queue, status: job.status }, 'reclaimed job of a dead worker');
      if (job.status === 'failed') await this.handlerFor(job)?.onFailed(job.payload as never, 'worker stopped responding', this.opts.log);
    }
    const job = await this.jobs.claim(Object.keys(this.handlers), this.id);
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  /** Runs jobs until none is due (tests, and the end of a batch). */
  async drain(): Promise<number> {
    let n = 0;
    while (await this.runOnce()) n += 1;
    return n;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const lanes = Array.from({ length: this.opts.concurrency }, () => this.lane());
    this.loop = Promise.all(lanes).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async lane(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runOnce();
      } catch (err) {
        this.opts.log.error({ err }, 'worker loop error');
      }
      if (!worked && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.opts.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private handlerFor(job: JobRow): JobHandler<never> | undefined {
    return this.handlers[job.queue];
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlerFor(job)!;
    const tags = { jobId: job.id, queue: job.queue, attempt: job.attempts, ...(job.payload as object) };
    const log: JobLogger = {
      info: (obj, msg) => this.opts.log.info({ ...tags, ...obj }, msg),
      error: (obj, msg) => this.opts.log.error({ ...tags, ...obj }, msg),
    };
    const heartbeat = () => this.jobs.heartbeat(job.id, this.id);
    const timer = setInterval(() => heartbeat().catch((err) => log.error({ err }, 'heartbeat failed')), this.opts.heartbeatMs);
    log.info({}, 'job started');
    try {
      const result = await handler.run(job.payload as never, { jobId: job.id, attempt: job.attempts, heartbeat, log });
      await this.jobs.complete(job.id, result);
      log.info({}, 'job done');
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      // The domain's failure state is written before the job is marked failed.
      if (final) await handler.onFailed(job.payload as never, reason, log);
      const delayMs = this.opts.backoffMs * 2 ** (job.attempts - 1);
      await this.jobs.fail(job.id, reason, { final, delayMs });
      log.error({ err: reason, final, retryInMs: final ? null : delayMs }, 'job failed');
    } finally {
      clearInterval(timer);
    }
  }
}
