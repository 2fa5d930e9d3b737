import { and, eq, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { ownerColumns } from '../users/users.repository.ts';

export type VideoRow = typeof videos.$inferSelect;

/** A video is visible when published and ready, and always to its owner. */
export function videoVisibleTo(viewerId: string | null): SQL {
  const isPublic = and(eq(videos.isPublished, true), eq(videos.status, 'ready'))!;
  return viewerId ? or(isPublic, eq(videos.ownerId, viewerId))! : isPublic;
}

/** Select list for a video card: the video row and its owner (join `users` on `videos.owner_id`). */
export const videoCardColumns = { video: videos, owner: ownerColumns };

export class VideoCardsRepository {
  constructor(private readonly db: Executor) {}

  /** Whether the video exists and the viewer may see it. */
  async isVisible(videoId: string, viewerId: string | null): Promise<boolean> {
    const [row] = await this.db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.id, videoId), videoVisibleTo(viewerId)))
      .limit(1);
    return row !== undefined;
  }
}
