import type { AppContext } from '../context.ts';
import { TRANSCODE_QUEUE, UploadsService } from '../modules/uploads/uploads.service.ts';
import { transcodeHandler } from '../modules/transcode/transcode.job.ts';
import { VideosRepository } from '../modules/videos/videos.repository.ts';
import { Worker, type JobLogger, type WorkerOptions } from './worker.ts';

/** The worker with every job handler and the periodic housekeeping (expired uploads, old view marks). */
export function createWorker(ctx: AppContext, log: JobLogger, opts: Partial<WorkerOptions> & { preset?: string } = {}): Worker {
  const uploads = new UploadsService(ctx);
  const videos = new VideosRepository(ctx.db);
  return new Worker(
    ctx.db,
    { [TRANSCODE_QUEUE]: transcodeHandler(ctx, { preset: opts.preset }) },
    {
      concurrency: ctx.config.worker.concurrency,
      maintenance: async () => {
        const swept = await uploads.sweepExpired();
        await videos.pruneViews();
        if (swept > 0) log.info({ swept }, 'removed expired upload sessions');
      },
      ...opts,
      log,
    },
  );
}
