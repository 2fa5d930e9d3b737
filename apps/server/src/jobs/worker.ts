import { hostname } from 'node:os';
import type { Database, Executor } from '../db/client.ts';
import { newId } from '../lib/ids.ts';
import { JOBS_DUE_CHANNEL, JobsRepository, type JobRow } from './jobs.repository.ts';

export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Why a running job's signal was aborted (the signal's `reason`). */
export class JobInterrupted extends Error {
  constructor(readonly kind: 'stopping' | 'cancelled') {
    super(kind === 'stopping' ? 'the worker is stopping' : 'the job was cancelled (deleted, or taken over by another worker)');
    this.name = 'JobInterrupted';
  }
}

export interface JobContext {
  jobId: string;
  attempt: number;
  /**
   * Aborted when the worker stops (the job is then requeued) or when the job is cancelled or
   * taken from this worker (its row deleted or reclaimed, seen at the next heartbeat). A handler
   * stops at once: kills its child processes and rejects (e.g. `signal.throwIfAborted()`).
   */
  signal: AbortSignal;
  /** Tells the queue this job is alive (called by the worker on a timer too); aborts `signal` when the job is no longer ours. */
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

/**
 * What a module gives the worker (ARCHITECTURE §13): the handlers of the queues it owns, which of
 * them run long, and its periodic housekeeping. Modules export one; the composition root
 * (worker.ts) registers them all, so this core knows no module.
 */
export interface JobModule {
  handlers?: Record<string, JobHandler<never>>;
  longQueues?: string[];
  maintenance?: (log: JobLogger) => Promise<void>;
}

/** The modules' registrations as the Worker takes them; a queue registered twice is a wiring mistake. */
export function combineJobModules(modules: JobModule[]): Required<JobModule> {
  const handlers: Record<string, JobHandler<never>> = {};
  for (const m of modules) {
    for (const [queue, handler] of Object.entries(m.handlers ?? {})) {
      if (handlers[queue]) throw new Error(`queue ${queue} has two handlers`);
      handlers[queue] = handler;
    }
  }
  const chores = modules.flatMap((m) => (m.maintenance ? [m.maintenance] : []));
  return {
    handlers,
    longQueues: modules.flatMap((m) => m.longQueues ?? []),
    maintenance: async (log) => {
      for (const chore of chores) await chore(log);
    },
  };
}

export interface WorkerOptions {
  pollMs?: number;
  heartbeatMs?: number;
  /** A running job without heartbeat for this long is taken to have lost its worker. */
  staleSeconds?: number;
  /** First retry delay; doubles with each attempt. */
  backoffMs?: number;
  concurrency?: number;
  /**
   * Queues of long jobs (transcodes): one more lane takes every other queue only, so mails,
   * notifications and publications never wait behind a long transcode.
   */
  longQueues?: string[];
  /** How long `stop()` waits for aborted handlers to return before requeueing their jobs itself. */
  stopGraceMs?: number;
  /** Housekeeping run at most every `maintenanceMs` from the loop (upload sweeper, view cleanup). */
  maintenance?: () => Promise<void>;
  maintenanceMs?: number;
  /**
   * Listens for the jobs enqueued as due (`JOBS_DUE_CHANNEL`): an idle lane of that queue claims at
   * once. Without it (or while its connection is being replaced) lanes find work at their next poll.
   */
  listen?: Database['listen'];
  log: JobLogger;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Pulls jobs from the PostgreSQL queue; runs in the server process or as `npm run worker`. */
export class Worker {
  readonly id = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly jobs: JobsRepository;
  private readonly opts: Required<Omit<WorkerOptions, 'maintenance' | 'listen'>> & Pick<WorkerOptions, 'maintenance' | 'listen'>;
  private readonly queues: string[];
  private running = false;
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** The idle lanes, each with the queues it takes. */
  private readonly wakers = new Map<() => void, string[]>();
  /** Counts announcements, so a lane that missed one while claiming does not go idle. */
  private announced = 0;
  private unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  /** The jobs this worker runs now, by id. */
  private readonly active = new Map<string, AbortController>();
  private lastMaintenance = 0;

  constructor(
    db: Executor,
    private readonly handlers: Record<string, JobHandler<never>>,
    opts: WorkerOptions,
  ) {
    this.jobs = new JobsRepository(db);
    this.opts = {
      pollMs: 1000,
      heartbeatMs: 2000,
      staleSeconds: 60,
      backoffMs: 10_000,
      concurrency: 1,
      stopGraceMs: 5000,
      maintenanceMs: 60_000,
      longQueues: [],
      ...opts,
    };
    this.queues = Object.keys(handlers);
  }

  /** Runs housekeeping if due, reclaims stale jobs, then runs one job; false when nothing was due. */
  async runOnce(queues = this.queues): Promise<boolean> {
    if (this.opts.maintenance && Date.now() - this.lastMaintenance >= this.opts.maintenanceMs) {
      this.lastMaintenance = Date.now();
      await this.opts.maintenance();
    }
    for (const job of await this.jobs.reclaimStale(this.opts.staleSeconds)) {
      this.opts.log.info({ jobId: job.id, queue: job.queue, status: job.status }, 'reclaimed job of a dead worker');
      if (job.status === 'failed') await this.handlerFor(job)?.onFailed(job.payload as never, 'worker stopped responding', this.opts.log);
    }
    const job = await this.jobs.claim(queues, this.id);
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

  /**
   * `concurrency` lanes, each running one job at a time, and one for the short queues when some are
   * long. Resolves once it listens for due jobs (or could not, and polls).
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    const short = this.queues.filter((q) => !this.opts.longQueues.includes(q));
    const lanes = Array.from({ length: this.opts.concurrency }, () => this.lane(this.queues));
    if (short.length < this.queues.length && short.length > 0) lanes.push(this.lane(short));
    this.loop = Promise.all(lanes).then(() => undefined);
    this.unlisten = this.opts.listen?.(JOBS_DUE_CHANNEL, (queue) => this.wake(queue)).catch((err) => {
      this.opts.log.error({ err }, 'cannot listen for due jobs: the worker polls');
      return undefined;
    });
    await this.unlisten;
  }

  /** Wakes the idle lanes that take `queue` (all of them when no queue is named). */
  private wake(queue?: string): void {
    this.announced += 1;
    for (const [done, queues] of this.wakers) if (!queue || queues.includes(queue)) done();
  }

  /**
   * Takes no more jobs, aborts the running ones and puts them back in the queue without using up
   * an attempt. Handlers that ignore their signal get `stopGraceMs`; their jobs are requeued anyway.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    this.wake();
    for (const controller of this.active.values()) controller.abort(new JobInterrupted('stopping'));
    await Promise.race([this.loop, sleep(this.opts.stopGraceMs)]);
    await (await unlisten)?.().catch(() => {});
    if (this.active.size > 0) {
      const ids = [...this.active.keys()];
      await this.jobs.requeue(ids, this.id);
      this.opts.log.error({ jobIds: ids }, 'jobs still running at stop were requeued');
    }
  }

  private async lane(queues: string[]): Promise<void> {
    while (this.running) {
      let worked = false;
      const announced = this.announced;
      try {
        worked = await this.runOnce(queues);
      } catch (err) {
        this.opts.log.error({ err }, 'worker loop error');
      }
      if (!worked && this.running && this.announced === announced) await this.idle(queues);
    }
  }

  /** Waits `pollMs`, or less when a job of its queues is announced or `stop()` wakes it. */
  private idle(queues: string[]): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.opts.pollMs);
      this.wakers.set(done, queues);
    });
  }

  private handlerFor(job: JobRow): JobHandler<never> | undefined {
    return this.handlers[job.queue];
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlerFor(job)!;
    // The payload's plain fields tag its log lines (ids); its objects (a probe, an activity) would bloat every line.
    const fields = Object.entries((job.payload ?? {}) as object).filter(([, v]) => v === null || typeof v !== 'object');
    const tags = { jobId: job.id, queue: job.queue, attempt: job.attempts, ...Object.fromEntries(fields) };
    const log: JobLogger = {
      info: (obj, msg) => this.opts.log.info({ ...tags, ...obj }, msg),
      error: (obj, msg) => this.opts.log.error({ ...tags, ...obj }, msg),
    };
    const controller = new AbortController();
    const { signal } = controller;
    this.active.set(job.id, controller);
    // Claimed while stop() was under way: straight back to the queue.
    if (this.stopping) controller.abort(new JobInterrupted('stopping'));
    const heartbeat = async () => {
      // Deleted (cancelled) or reclaimed by another worker: whatever it does now is wasted.
      if (!(await this.jobs.heartbeat(job.id, this.id)) && !signal.aborted) controller.abort(new JobInterrupted('cancelled'));
    };
    const timer = setInterval(() => heartbeat().catch((err) => log.error({ err }, 'heartbeat failed')), this.opts.heartbeatMs);
    log.info({}, 'job started');
    try {
      signal.throwIfAborted();
      const result = await handler.run(job.payload as never, { jobId: job.id, attempt: job.attempts, signal, heartbeat, log });
      signal.throwIfAborted();
      await this.jobs.complete(job.id, this.id, result);
      log.info({}, 'job done');
    } catch (err) {
      if (signal.aborted) await this.interrupted(job, signal.reason as JobInterrupted, log);
      else await this.failed(job, handler, err, log);
    } finally {
      clearInterval(timer);
      this.active.delete(job.id);
    }
  }

  /** Stopping: back to the queue, attempt not counted. Cancelled: the row is gone or someone else's. */
  private async interrupted(job: JobRow, reason: JobInterrupted, log: JobLogger): Promise<void> {
    if (reason.kind === 'stopping') {
      await this.jobs.requeue([job.id], this.id);
      log.info({}, 'job requeued: the worker is stopping');
    } else {
      log.info({}, 'job cancelled');
    }
  }

  private async failed(job: JobRow, handler: JobHandler<never>, err: unknown, log: JobLogger): Promise<void> {
    const reason = err instanceof Error ? err.message : String(err);
    const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
    // The domain's failure state is written before the job is marked failed.
    if (final) await handler.onFailed(job.payload as never, reason, log);
    const delayMs = this.opts.backoffMs * 2 ** (job.attempts - 1);
    await this.jobs.fail(job.id, this.id, reason, { final, delayMs });
    log.error({ err: reason, final, retryInMs: final ? null : delayMs }, 'job failed');
  }
}
