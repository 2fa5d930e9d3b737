import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { measureOldLiveThumbnails, measureOldVideos } from './storage-measure.ts';
import { StorageUsageRepository } from './storage-usage.repository.ts';

/** Upload records past the daily quota's window go; videos stored before quotas and older live thumbnails are measured. */
export function quotaJobs(ctx: AppContext): JobModule {
  const storageUsage = new StorageUsageRepository(ctx.db);
  return {
    maintenance: async (log) => {
      await storageUsage.pruneUploads();
      const measured = await measureOldVideos(ctx);
      if (measured > 0) log.info({ measured }, 'measured the files of videos stored before quotas');
      const thumbnails = await measureOldLiveThumbnails(ctx);
      if (thumbnails > 0) log.info({ thumbnails }, 'measured live thumbnails stored before they were counted');
    },
  };
}
