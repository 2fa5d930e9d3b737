import type { NotificationSubject } from '@glimpse/contract';
import type { Executor } from '../db/client.ts';
import { JobsRepository } from '../jobs/jobs.repository.ts';
import { newId } from '../lib/ids.ts';
import { EventsRepository } from './events.repository.ts';

/**
 * The queue that hands each event to its subscribers: one job per event, enqueued with it. (Named
 * for its first subscriber; the name stays so queued jobs of older versions still run.)
 */
export const EVENTS_QUEUE = 'notification-fanout';

/**
 * Something others should hear about, published by the module that owns the change. Subscribers
 * read the item's state when they run (a comment deleted meanwhile tells no one), so events carry
 * ids, not copies.
 */
export type DomainEvent =
  | { kind: 'videoPublished'; actorId: string; videoId: string }
  /** Anything others may mirror changed: details, privacy, take-down or restore, deletion (federation, ADR 023). */
  | { kind: 'videoChanged'; actorId: string; videoId: string }
  | { kind: 'commentPublished'; actorId: string; commentId: string }
  /**
   * A comment on a video was edited, deleted (with its replies) or taken down or restored: federation
   * sends Update or Delete of the Notes it sent (ADR 023). actorId is the one who acted.
   */
  | { kind: 'commentChanged'; actorId: string; commentId: string; videoId: string }
  | { kind: 'tweetPublished'; actorId: string; tweetId: string }
  /** A tweet was edited or deleted (federation sends Update or Delete of its Note); actorId is its owner. */
  | { kind: 'tweetChanged'; actorId: string; tweetId: string }
  | { kind: 'subscribed'; actorId: string; channelId: string }
  /**
   * An account was deleted. Nothing is left to read afterwards, so the event carries the inboxes of
   * the servers that knew it (its remote followers' and those it followed), for federation's Delete.
   */
  | { kind: 'accountDeleted'; actorId: null; userId: string; inboxes: string[] }
  | { kind: 'liveStarted'; actorId: string; liveId: string; sessionId: string }
  | { kind: 'videoProcessed'; actorId: null; videoId: string; outcome: 'ready' | 'failed'; reason?: string }
  | { kind: 'moderation'; actorId: null; userIds: string[]; subject: NotificationSubject };

export type EventOf<K extends DomainEvent['kind']> = Extract<DomainEvent, { kind: K }>;

export interface EventJobPayload {
  eventId: string;
}

/**
 * Writes the event and its dispatch job in the caller's transaction (a transactional outbox): both
 * commit with the change that caused them, or neither does; the request never waits for subscribers.
 */
export async function recordEvent(tx: Executor, event: DomainEvent): Promise<void> {
  const id = newId();
  const { kind, actorId, ...payload } = event;
  await new EventsRepository(tx).insert(id, kind, actorId, payload);
  const job: EventJobPayload = { eventId: id };
  await new JobsRepository(tx).enqueue(EVENTS_QUEUE, job, { maxAttempts: 5 });
}
