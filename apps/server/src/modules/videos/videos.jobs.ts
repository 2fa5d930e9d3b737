import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { PUBLISH_QUEUE } from './privacy.ts';
import { publishHandler } from './publish.job.ts';
import { VideosRepository } from './videos.repository.ts';

/** Scheduled publications, and the view marks past their hour. */
export function videosJobs(ctx: AppContext): JobModule {
  const videos = new VideosRepository(ctx.db);
  return {
    handlers: { [PUBLISH_QUEUE]: publishHandler(ctx) },
    maintenance: async () => {
      await videos.pruneViews();
    },
  };
}
