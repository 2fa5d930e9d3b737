import type { NotificationSubject } from '@glimpse/contract';
import type { Executor } from '../../db/client.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { newId } from '../../lib/ids.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { NotificationsRepository } from './notifications.repository.ts';

/** The queue of fan-outs: one job per event, enqueued with it. */
export const FANOUT_QUEUE = 'notification-fanout';

/**
 * Something others should hear about. The fan-out reads the item's state when it runs (a comment
 * deleted meanwhile tells no one), so events carry ids, not copies.
 */
export type DomainEvent =
  | { kind: 'videoPublished'; actorId: string; videoId: string }
  | { kind: 'commentPublished'; actorId: string; commentId: string }
  | { kind: 'tweetPublished'; actorId: string; tweetId: string }
  | { kind: 'subscribed'; actorId: string; channelId: string }
  | { kind: 'videoProcessed'; actorId: null; videoId: string; outcome: 'ready' | 'failed'; reason?: string }
  | { kind: 'moderation'; actorId: null; userIds: string[]; subject: NotificationSubject };

export interface FanoutPayload {
  eventId: string;
}

/**
 * Writes the event and its fan-out job in the caller's transaction (a transactional outbox): both
 * commit with the change that caused them, or neither does; the request never waits for the fan-out.
 */
export async function recordEvent(tx: Executor, event: DomainEvent): Promise<void> {
  const id = newId();
  const { kind, actorId, ...payload } = event;
  await new NotificationsRepository(tx).insertEvent(id, kind, actorId, payload);
  const job: FanoutPayload = { eventId: id };
  await new JobsRepository(tx).enqueue(FANOUT_QUEUE, job, { maxAttempts: 5 });
}

/** Tells the channel's subscribers of the video the first time it is listed (in the caller's transaction). */
export async function announceVideo(tx: Executor, video: { id: string; ownerId: string }): Promise<void> {
  if (await new VideosRepository(tx).announce(video.id)) await recordEvent(tx, { kind: 'videoPublished', actorId: video.ownerId, videoId: video.id });
}
