import type { Executor } from '../db/client.ts';
import type { JobContext, JobModule } from '../jobs/worker.ts';
import { EVENTS_QUEUE, type DomainEvent, type EventJobPayload } from './events.ts';
import { EventsRepository } from './events.repository.ts';

/**
 * A module that reacts to events (notifications today; federation next). It runs at least once per
 * event, so it must be idempotent; what it returns is logged as the job's result.
 */
export interface EventSubscriber {
  name: string;
  handle(eventId: string, event: DomainEvent, job: JobContext): Promise<object>;
}

/**
 * The dispatch job: reads the event, hands it to every subscriber in order, then deletes it. A
 * subscriber that throws fails the job, which is retried whole (subscribers are idempotent).
 * The composition root (worker.ts) passes the subscribers; this core knows no module.
 */
export function eventJobs(db: Executor, subscribers: EventSubscriber[]): JobModule {
  const events = new EventsRepository(db);
  return {
    handlers: {
      [EVENTS_QUEUE]: {
        async run({ eventId }: EventJobPayload, job: JobContext) {
          const row = await events.find(eventId);
          if (!row) return { skipped: 'no event' };
          const event = { kind: row.kind, actorId: row.actor_id, ...row.payload } as DomainEvent;
          const results: Record<string, object> = {};
          for (const s of subscribers) results[s.name] = await s.handle(eventId, event, job);
          await events.delete(eventId);
          return results;
        },
        // What subscribers wrote stays; the rest of the event is dropped (the job's row keeps the error).
        onFailed: async () => {},
      },
    },
  };
}
