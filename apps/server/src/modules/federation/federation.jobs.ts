import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { DELIVER_QUEUE, deliveryHandler } from './delivery.ts';
import { FederationRepository } from './federation.repository.ts';
import { SEEN_DAYS } from './inbox.service.ts';

/** Federation's queue (signed deliveries) and housekeeping (forgetting old activity ids and deleted accounts' keys once their Delete is out). */
export function federationJobs(ctx: AppContext): JobModule {
  const repo = new FederationRepository(ctx.db);
  return {
    handlers: { [DELIVER_QUEUE]: deliveryHandler(ctx) },
    maintenance: async () => {
      await repo.pruneSeen(SEEN_DAYS);
      await repo.pruneDetachedKeys(DELIVER_QUEUE);
    },
  };
}
