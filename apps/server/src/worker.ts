import type { AppContext } from './context.ts';
import { eventJobs } from './events/dispatch.ts';
import { combineJobModules, Worker, type JobHandler, type JobLogger, type JobModule, type WorkerOptions } from './jobs/worker.ts';
import { RateLimitsRepository } from './lib/rate-limits.repository.ts';
import { accountsJobs } from './modules/accounts/accounts.jobs.ts';
import { analyticsJobs } from './modules/analytics/analytics.jobs.ts';
import { authJobs } from './modules/auth/auth.jobs.ts';
import { federationEvents } from './modules/federation/federation-events.ts';
import { federationJobs } from './modules/federation/federation.jobs.ts';
import { LiveIngest } from './modules/lives/live-ingest.ts';
import { saveReplay } from './modules/lives/live-replay.ts';
import { moderationJobs } from './modules/moderation/moderation.jobs.ts';
import { notificationEvents } from './modules/notifications/notification-events.ts';
import { notificationsJobs } from './modules/notifications/notifications.jobs.ts';
import { quotaJobs } from './modules/quota/quota.jobs.ts';
import { transcodeJobs } from './modules/transcode/transcode.jobs.ts';
import { uploadsJobs } from './modules/uploads/uploads.jobs.ts';
import { videosJobs } from './modules/videos/videos.jobs.ts';

export interface CreateWorkerOptions extends Partial<WorkerOptions> {
  /** More queues beside the app's (tests run their own handlers on the real worker). */
  handlers?: Record<string, JobHandler<never>>;
}

/**
 * The worker's composition root (ARCHITECTURE §13): the one place that knows every module's jobs.
 * Each module exports its handlers and housekeeping; events go to their subscribers in the order
 * listed here (a new subscriber, e.g. federation, is added to that list).
 */
export function workerJobs(ctx: AppContext): JobModule[] {
  const rateLimits = new RateLimitsRepository(ctx.db);
  return [
    eventJobs(ctx.db, [notificationEvents(ctx), federationEvents(ctx)]),
    transcodeJobs(ctx),
    uploadsJobs(ctx),
    videosJobs(ctx),
    { maintenance: async () => void (await rateLimits.pruneExpired()) },
    quotaJobs(ctx),
    authJobs(ctx),
    accountsJobs(ctx),
    moderationJobs(ctx),
    notificationsJobs(ctx),
    analyticsJobs(ctx),
    federationJobs(ctx),
  ];
}

/** The worker with every module's job handlers and periodic housekeeping. */
export function createWorker(ctx: AppContext, log: JobLogger, opts: CreateWorkerOptions = {}): Worker {
  const { handlers, ...workerOpts } = opts;
  const jobs = combineJobModules(workerJobs(ctx));
  // A test's handlers may stand in for an app queue's.
  return new Worker(ctx.db, { ...jobs.handlers, ...handlers }, {
    concurrency: ctx.config.worker.concurrency,
    longQueues: jobs.longQueues,
    maintenance: () => jobs.maintenance(log),
    listen: ctx.database.listen,
    ...workerOpts,
    log,
  });
}

/**
 * The RTMP ingest of lives (ADR 024), beside the job worker so API processes stay stateless; none
 * when LIVE_RTMP_PORT is 0. A port already taken is logged, and the rest of the worker runs on.
 */
export async function startLiveIngest(ctx: AppContext, log: JobLogger): Promise<LiveIngest | undefined> {
  const { rtmpPort, rtmpHost } = ctx.config.live;
  if (!rtmpPort) return undefined;
  const ingest = new LiveIngest(ctx, {
    log,
    onSessionEnd: async (session) => {
      const videoId = await saveReplay(ctx, session);
      if (videoId) log.info({ liveId: session.live.id, videoId }, 'live replay saved');
    },
  });
  try {
    await ingest.listen(rtmpPort, rtmpHost);
    log.info({ port: rtmpPort, host: rtmpHost }, 'live ingest listening');
    return ingest;
  } catch (err) {
    log.error({ port: rtmpPort, err: (err as Error).message }, 'live ingest could not listen: lives cannot go on air from this worker');
    return undefined;
  }
}
