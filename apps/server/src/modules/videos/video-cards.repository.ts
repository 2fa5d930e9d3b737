import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { publicMediaToken, videoListedTo } from '../../policy/visibility.ts';
import { ownerColumns, type OwnerRow } from '../users/users.repository.ts';

export type VideoRow = typeof videos.$inferSelect;

/** Select list for a video card: the video row, its owner (join `users` on `videos.owner_id`) and its public media token. */
export const videoCardColumns = { video: videos, owner: ownerColumns, publicToken: publicMediaToken(videos) };

export interface VideoCardRow {
  video: VideoRow;
  owner: OwnerRow;
  publicToken: string | null;
}

export class VideoCardsRepository {
  constructor(private readonly db: Executor) {}

  /** Whether the video exists and may appear in the viewer's lists (a playlist entry: unlisted ones may not). */
  async isListed(videoId: string, viewerId: string | null): Promise<boolean> {
    const [row] = await this.db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.id, videoId), videoListedTo(viewerId)))
      .limit(1);
    return row !== undefined;
  }

  /** Whether `token` is the public media token of the video: the video is public and the token current. */
  async isPublicMedia(videoId: string, token: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.id, videoId), sql`${publicMediaToken(videos)} = ${token}`))
      .limit(1);
    return row !== undefined;
  }
}
