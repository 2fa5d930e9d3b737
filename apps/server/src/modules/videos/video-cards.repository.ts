import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { ownerColumns, type OwnerRow } from '../users/users.repository.ts';

export type VideoRow = typeof videos.$inferSelect;

/** The columns the visibility rule reads: the `videos` table's, or an alias's in raw SQL. */
export interface VisibilityColumns {
  isPublished: SQLWrapper;
  status: SQLWrapper;
  ownerId: SQLWrapper;
}

/** The one visibility rule: a video is visible when published and ready, and always to its owner. */
export function videoVisibility(cols: VisibilityColumns, viewerId: string | null): SQL {
  const isPublic = sql`(${cols.isPublished} AND ${cols.status} = 'ready')`;
  return viewerId ? sql`(${isPublic} OR ${cols.ownerId} = ${viewerId}::uuid)` : isPublic;
}

/** The rule over the `videos` table (Drizzle query-builder queries). */
export const videoVisibleTo = (viewerId: string | null): SQL => videoVisibility(videos, viewerId);

/**
 * The video's media token while the video is public (the rule, for a visitor), else null. Public
 * media URLs carry it and the media route compares against it: the same rule decides both.
 */
export function publicMediaToken(cols: VisibilityColumns & { mediaToken: SQLWrapper }): SQL<string | null> {
  return sql<string | null>`(CASE WHEN ${videoVisibility(cols, null)} THEN ${cols.mediaToken} END)`;
}

/** Select list for a video card: the video row, its owner (join `users` on `videos.owner_id`) and its public media token. */
export const videoCardColumns = { video: videos, owner: ownerColumns, publicToken: publicMediaToken(videos) };

export interface VideoCardRow {
  video: VideoRow;
  owner: OwnerRow;
  publicToken: string | null;
}

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
