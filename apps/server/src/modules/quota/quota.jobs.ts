import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { measureOldVideos } from './storage-measure.ts';
import { StorageUsageRepository } from './storage-usage.repository.ts';

/** Upload records past the daily quota's window go; videos stored before quotas are measured. */
export function quotaJobs(ctx: AppContext): JobModule {
  const storageUsage = new StorageUsageRepository(ctx.db);
  return {
    maintenance: async (log) => {
      await storageUsage.pruneUploads();
      const measured = await measureOldVideos(ctx);
      if (measured > 0) log.info({ measured }, 'measured the files of videos stored before quotas');
    },
  };
}
