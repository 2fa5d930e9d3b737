import type { AppContext } from '../context.ts';
import { PASSWORD_RESET_MAIL_QUEUE } from '../modules/auth/auth.service.ts';
import { passwordResetMailHandler } from '../modules/auth/password-reset-mail.job.ts';
import { MODERATION_MAIL_QUEUE, moderationMailHandler } from '../modules/moderation/moderation-mail.job.ts';
import { TRANSCODE_QUEUE, UploadsService } from '../modules/uploads/uploads.service.ts';
import { transcodeHandler } from '../modules/transcode/transcode.job.ts';
import { VideosRepository } from '../modules/videos/videos.repository.ts';
import { PUBLISH_QUEUE } from '../modules/videos/privacy.ts';
import { publishHandler } from '../modules/videos/publish.job.ts';
import { RateLimitsRepository } from '../lib/rate-limits.repository.ts';
import { ACCOUNT_FILES_QUEUE, accountFilesHandler } from '../modules/accounts/account-files.job.ts';
import { StorageUsageRepository } from '../modules/accounts/storage-usage.repository.ts';
import { measureOldVideos } from '../modules/accounts/storage-measure.ts';
import { FANOUT_QUEUE } from '../modules/notifications/events.ts';
import { fanoutHandler } from '../modules/notifications/fanout.job.ts';
import { rollupAnalytics } from '../modules/analytics/rollup.ts';
import { NOTIFICATION_MAIL_QUEUE, notificationMailHandler, scheduleNotificationMail } from '../modules/notifications/notification-mail.job.ts';
import { Worker, type JobHandler, type JobLogger, type WorkerOptions } from './worker.ts';

export interface CreateWorkerOptions extends Partial<WorkerOptions> {
  /** More queues beside the app's (tests run their own handlers on the real worker). */
  handlers?: Record<string, JobHandler<never>>;
}

/** The worker with every job handler and the periodic housekeeping (expired uploads, old view marks, finished rate-limit windows, upload records past the daily quota's window, measuring videos stored before quotas, the analytics rollup, notification mails coming due). */
export function createWorker(ctx: AppContext, log: JobLogger, opts: CreateWorkerOptions = {}): Worker {
  const { handlers, ...workerOpts } = opts;
  const uploads = new UploadsService(ctx);
  const videos = new VideosRepository(ctx.db);
  const rateLimits = new RateLimitsRepository(ctx.db);
  const storageUsage = new StorageUsageRepository(ctx.db);
  return new Worker(
    ctx.db,
    {
      [TRANSCODE_QUEUE]: transcodeHandler(ctx),
      [PASSWORD_RESET_MAIL_QUEUE]: passwordResetMailHandler(ctx),
      [ACCOUNT_FILES_QUEUE]: accountFilesHandler(ctx),
      [MODERATION_MAIL_QUEUE]: moderationMailHandler(ctx),
      [PUBLISH_QUEUE]: publishHandler(ctx),
      [FANOUT_QUEUE]: fanoutHandler(ctx),
      [NOTIFICATION_MAIL_QUEUE]: notificationMailHandler(ctx),
      ...handlers,
    },
    {
      concurrency: ctx.config.worker.concurrency,
      longQueues: [TRANSCODE_QUEUE, ACCOUNT_FILES_QUEUE],
      maintenance: async () => {
        const swept = await uploads.sweepExpired();
        await videos.pruneViews();
        await rateLimits.pruneExpired();
        await storageUsage.pruneUploads();
        await scheduleNotificationMail(ctx);
        const measured = await measureOldVideos(ctx);
        if (measured > 0) log.info({ measured }, 'measured the files of videos stored before quotas');
        if (swept > 0) log.info({ swept }, 'removed expired upload sessions');
        const analytics = await rollupAnalytics(ctx);
        if (analytics.pruned > 0) log.info(analytics, 'rolled up analytics and pruned raw rows');
      },
      ...workerOpts,
      log,
    },
  );
}
