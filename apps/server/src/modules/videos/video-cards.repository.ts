import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { moderationClear } from '../moderation/content-state.ts';
import { ownerColumns, type OwnerRow } from '../users/users.repository.ts';

export type VideoRow = typeof videos.$inferSelect;

/** The columns the visibility rule reads: the `videos` table's, or an alias's in raw SQL. */
export interface VisibilityColumns {
  privacy: SQLWrapper;
  status: SQLWrapper;
  ownerId: SQLWrapper;
  takenDownAt: SQLWrapper;
}

/**
 * The one visibility rule, with its two entry points. A video is shown to others when ready, not
 * taken down, its owner not suspended (moderationClear) and its privacy allows it, and always to
 * its owner. `reach` says what the privacy must be (ADR 013):
 * - `direct` (a GET of the video by its id or link, its media, liking, commenting): public or unlisted;
 * - `listed` (every list: home, search, channel, similar, feeds, playlists, likes, history): public only;
 * - `staff` (a staff member's direct GET): any privacy, private ones included.
 */
function videoRule(cols: VisibilityColumns, viewerId: string | null, reach: 'direct' | 'listed' | 'staff'): SQL {
  const privacy = {
    listed: sql`${cols.privacy} = 'public'`,
    direct: sql`${cols.privacy} IN ('public', 'unlisted')`,
    staff: sql`true`,
  }[reach];
  const shown = sql`(${privacy} AND ${cols.status} = 'ready' AND ${moderationClear(cols)})`;
  return viewerId ? sql`(${shown} OR ${cols.ownerId} = ${viewerId}::uuid)` : shown;
}

/** Whether the viewer may open the video by its id or link: public or unlisted (or their own; any, for `staff`). */
export const videoVisibility = (cols: VisibilityColumns, viewerId: string | null, staff = false): SQL =>
  videoRule(cols, viewerId, staff ? 'staff' : 'direct');
/**
 * The `direct` rule for one viewer from its result for a visitor (`videoVisibility(cols, null)`,
 * read once and cached by analytics heartbeats): what a visitor may open, or the viewer's own video,
 * as videoRule's last line says.
 */
export const directlyVisibleTo = (shownToVisitors: boolean, ownerId: string, viewerId: string | null): boolean =>
  shownToVisitors || (viewerId !== null && ownerId === viewerId);
/** Whether the video may appear in a list the viewer sees: public only (or their own). */
export const videoListedVisibility = (cols: VisibilityColumns, viewerId: string | null): SQL => videoRule(cols, viewerId, 'listed');

/** The rules over the `videos` table (Drizzle query-builder queries). */
export const videoVisibleTo = (viewerId: string | null): SQL => videoVisibility(videos, viewerId);
export const videoListedTo = (viewerId: string | null): SQL => videoListedVisibility(videos, viewerId);

/**
 * The video's media token while the video is public (listed, for a visitor), else null. Public
 * media URLs carry it and the media route compares against it: the same rule decides both. An
 * unlisted video's media is served through signed links only (ADR 011, 013).
 */
export function publicMediaToken(cols: VisibilityColumns & { mediaToken: SQLWrapper }): SQL<string | null> {
  return sql<string | null>`(CASE WHEN ${videoListedVisibility(cols, null)} THEN ${cols.mediaToken} END)`;
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
