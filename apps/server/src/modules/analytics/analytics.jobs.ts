import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { rollupAnalytics } from './rollup.ts';

/** Raw analytics rows are rolled up into daily figures, then pruned. */
export const analyticsJobs = (ctx: AppContext): JobModule => ({
  maintenance: async (log) => {
    const analytics = await rollupAnalytics(ctx);
    if (analytics.pruned > 0) log.info(analytics, 'rolled up analytics and pruned raw rows');
  },
});
