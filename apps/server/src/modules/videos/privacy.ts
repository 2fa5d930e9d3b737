import { PUBLISH_AT_MAX_DAYS, videoMessages, type VideoPrivacy, type VideoPrivacyFields } from '@glimpse/contract';
import type { Executor } from '../../db/client.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { badRequest } from '../../lib/errors.ts';

/** The queue of scheduled publications (ADR 013). */
export const PUBLISH_QUEUE = 'video-publish';

export interface PublishPayload {
  videoId: string;
  /** The schedule this job was made for; the job does nothing once the row's differs. */
  publishAt: string;
}

export interface PrivacyChange {
  privacy: VideoPrivacy;
  publishAt: Date | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the fields ask for, or undefined when they leave privacy alone. A `publishAt` schedules a
 * private video (in the future, within PUBLISH_AT_MAX_DAYS); any other privacy choice, or a null
 * `publishAt`, drops the schedule.
 */
export function privacyChange(fields: VideoPrivacyFields, current: VideoPrivacy, now = Date.now()): PrivacyChange | undefined {
  if (fields.publishAt) {
    if (fields.privacy && fields.privacy !== 'private') throw badRequest(videoMessages.scheduledIsPrivate);
    const publishAt = new Date(fields.publishAt);
    if (publishAt.getTime() <= now) throw badRequest(videoMessages.publishAtPast);
    if (publishAt.getTime() > now + PUBLISH_AT_MAX_DAYS * DAY_MS) throw badRequest(videoMessages.publishAtTooFar);
    return { privacy: 'private', publishAt };
  }
  if (fields.privacy === undefined && fields.publishAt === undefined) return undefined;
  return { privacy: fields.privacy ?? current, publishAt: null };
}

/** Replaces the video's queued publication by one at `publishAt` (none when null), in the caller's transaction. */
export async function schedulePublication(tx: Executor, video: { id: string; ownerId: string }, publishAt: Date | null): Promise<void> {
  const jobs = new JobsRepository(tx);
  await jobs.deleteQueuedForVideo(PUBLISH_QUEUE, video.id);
  if (!publishAt) return;
  const payload: PublishPayload = { videoId: video.id, publishAt: publishAt.toISOString() };
  await jobs.enqueue(PUBLISH_QUEUE, payload, { ownerId: video.ownerId, runAt: publishAt, maxAttempts: 5 });
}
