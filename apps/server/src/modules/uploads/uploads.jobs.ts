import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { UploadsService } from './uploads.service.ts';

/** Upload sessions idle past their time go, with their chunks. */
export function uploadsJobs(ctx: AppContext): JobModule {
  const uploads = new UploadsService(ctx);
  return {
    maintenance: async (log) => {
      const swept = await uploads.sweepExpired();
      if (swept > 0) log.info({ swept }, 'removed expired upload sessions');
    },
  };
}
