import type { Executor } from '../../db/client.ts';
import { recordEvent } from '../../events/events.ts';
import { VideosRepository } from './videos.repository.ts';

/** Publishes "video published" the first time the video is listed (in the caller's transaction); true when it did. */
export async function announceVideo(tx: Executor, video: { id: string; ownerId: string }): Promise<boolean> {
  if (!(await new VideosRepository(tx).announce(video.id))) return false;
  await recordEvent(tx, { kind: 'videoPublished', actorId: video.ownerId, videoId: video.id });
  return true;
}

/**
 * Tells subscribers (federation) the video changed, in the caller's transaction; they read its state
 * when they run. Only when others may have seen it: listed now, or listed before the change
 * (`wasListed`, read by the caller before it), so edits of a private draft queue nothing.
 */
export async function videoChanged(tx: Executor, video: { id: string; ownerId: string }, wasListed = false): Promise<void> {
  if (wasListed || (await new VideosRepository(tx).isListed(video.id)))
    await recordEvent(tx, { kind: 'videoChanged', actorId: video.ownerId, videoId: video.id });
}
