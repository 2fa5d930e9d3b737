import type { Executor } from '../../db/client.ts';
import { recordEvent } from '../../events/events.ts';
import { VideosRepository } from './videos.repository.ts';

/** Publishes "video published" the first time the video is listed (in the caller's transaction). */
export async function announceVideo(tx: Executor, video: { id: string; ownerId: string }): Promise<void> {
  if (await new VideosRepository(tx).announce(video.id)) await recordEvent(tx, { kind: 'videoPublished', actorId: video.ownerId, videoId: video.id });
}

/** Tells subscribers (federation) the video changed: they read its state when they run (in the caller's transaction). */
export async function videoChanged(tx: Executor, video: { id: string; ownerId: string }): Promise<void> {
  await recordEvent(tx, { kind: 'videoChanged', actorId: video.ownerId, videoId: video.id });
}
