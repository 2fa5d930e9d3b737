import type { AppContext } from '../../context.ts';
import { AnalyticsRepository } from './analytics.repository.ts';

const HOUR_MS = 3_600_000;
/** An hour is rolled this long after it ends: heartbeats still in flight at its end are in by then. */
export const ROLLUP_GRACE_MS = 2 * 60_000;

/**
 * The worker's analytics housekeeping (its maintenance hook): rolls every whole hour not rolled
 * yet into the aggregates, then deletes raw rows older than ANALYTICS_RAW_DAYS that are rolled.
 * The watermark row is locked and moved in the transaction that writes the aggregates, so a
 * second worker waits, then finds nothing left to roll: no hour is counted twice. The time since
 * the watermark is then written again as provisional rows (replaced by the next run).
 * `now` is the clock (tests move it forward).
 */
export async function rollupAnalytics(ctx: AppContext, now = new Date()): Promise<{ rolledUntil: Date; pruned: number }> {
  const until = new Date(Math.floor((now.getTime() - ROLLUP_GRACE_MS) / HOUR_MS) * HOUR_MS);
  const rolledUntil = await ctx.db.transaction(async (tx) => {
    const repo = new AnalyticsRepository(tx);
    const from = await repo.lockWatermark();
    const rolled = from && from >= until ? from : until;
    if (rolled === until) {
      await repo.rollup(from, until);
      await repo.setWatermark(until);
    }
    // The hour in progress, as far as it went: replaced at every run, so creators see today within a minute.
    await repo.clearProvisional();
    await repo.rollup(rolled, now, true);
    return rolled;
  });
  const expiry = new Date(now.getTime() - ctx.config.analytics.rawDays * 24 * HOUR_MS);
  const pruned = await new AnalyticsRepository(ctx.db).prune(rolledUntil < expiry ? rolledUntil : expiry);
  return { rolledUntil, pruned };
}
