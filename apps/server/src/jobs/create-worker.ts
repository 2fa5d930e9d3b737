import type { AppContext } from '../context.ts';
import { PASSWORD_RESET_MAIL_QUEUE } from '../modules/auth/auth.service.ts';
import { passwordResetMailHandler } from '../modules/auth/password-reset-mail.job.ts';
import { TRANSCODE_QUEUE, UploadsService } from '../modules/uploads/uploads.service.ts';
import { transcodeHandler } from '../modules/transcode/transcode.job.ts';
import { VideosRepository } from '../modules/videos/videos.repository.ts';
import { RateLimitsRepository } from '../lib/rate-limits.repository.ts';
import { Worker, type JobLogger, type WorkerOptions } from './worker.ts';

/** The worker with every job handler and the periodic housekeeping (expired uploads, old view marks, finished rate-limit windows). */
export function createWorker(ctx: AppContext, log: JobLogger, opts: Partial<WorkerOptions> = {}): Worker {
  const uploads = new UploadsService(ctx);
  const videos = new VideosRepository(ctx.db);
  const rateLimits = new RateLimitsRepository(ctx.db);
  return new Worker(
    ctx.db,
    { [TRANSCODE_QUEUE]: transcodeHandler(ctx), [PASSWORD_RESET_MAIL_QUEUE]: passwordResetMailHandler(ctx) },
    {
      concurrency: ctx.config.worker.concurrency,
      maintenance: async () => {
        const swept = await uploads.sweepExpired();
        await videos.pruneViews();
        await rateLimits.pruneExpired();
        if (swept > 0) log.info({ swept }, 'removed expired upload sessions');
      },
      ...opts,
      log,
    },
  );
}
