import { and, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { comments, lives, tweets, videos } from '../db/schema.ts';
import { accountSuspended, moderationClear } from './content-state.ts';

/**
 * The visibility policy (ARCHITECTURE §9, §13): every "who may see this" rule for videos, tweets and
 * comments, as SQL fragments the repositories put in their queries and plain checks. Accounts and
 * channels: content-state.ts. Media files follow their video's rule (publicMediaToken; signed links
 * for the rest, ADR 011). Playlists are public and show only entries the viewer may list.
 * Modules call these instead of each other; nothing here imports a module.
 */

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

/**
 * A video a visitor could open by its link but for the moderators' take-down: the page may say it
 * was removed rather than not found. A private or unfinished video, or a suspended account's, stays
 * not found, so the answer tells nothing a visitor could not have seen before the take-down.
 */
export const videoRemovedByModerators = (cols: VisibilityColumns): SQL =>
  sql`(${cols.takenDownAt} IS NOT NULL AND ${cols.privacy} IN ('public', 'unlisted') AND ${cols.status} = 'ready' AND NOT ${accountSuspended(cols.ownerId)})`;

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

/**
 * Which tweets a viewer is shown: published ones that moderators did not take down, by an account
 * that is not suspended (moderationClear, ADR 012); every one of their own; staff see every one.
 */
export function tweetShownTo(viewerId: string | null, staff: boolean): SQL | undefined {
  if (staff) return undefined;
  const shown = and(eq(tweets.reviewState, 'published'), moderationClear(tweets))!;
  return viewerId ? or(shown, eq(tweets.ownerId, viewerId)) : shown;
}

/**
 * Which comments a viewer is shown: published ones, and held ones too for the reviewer (the owner of
 * the video or tweet), unless moderators took them down or their author is suspended
 * (moderationClear, ADR 012); their author is shown every one of their own.
 */
export function commentShownTo(viewerId: string | null, reviewer: boolean): SQL {
  const shown = reviewer ? moderationClear(comments) : and(eq(comments.reviewState, 'published'), moderationClear(comments))!;
  return viewerId ? or(shown, eq(comments.ownerId, viewerId))! : shown;
}

/**
 * A live (ADR 024): public and unlisted ones open to anyone with the link, private ones to their
 * owner only; a suspended account's to no one else, as its videos.
 */
export const liveVisibleTo = (live: { privacy: 'public' | 'unlisted' | 'private'; ownerId: string; ownerSuspended: boolean }, viewerId: string | null): boolean =>
  directlyVisibleTo(live.privacy !== 'private' && !live.ownerSuspended, live.ownerId, viewerId);

/** The same rule as SQL, for rows that join `lives`. */
export const liveVisibility = (viewerId: string | null): SQL => {
  const shown = sql`(${lives.privacy} <> 'private' AND NOT ${accountSuspended(lives.ownerId)})`;
  return viewerId ? or(shown, eq(lives.ownerId, viewerId))! : shown;
};

/** A comment's live (live chat), if it has one, is one the viewer may see. */
export const commentLiveVisibleTo = (viewerId: string | null): SQL =>
  sql`(${comments.liveId} IS NULL OR EXISTS (SELECT 1 FROM ${lives} WHERE ${lives.id} = ${comments.liveId} AND ${liveVisibility(viewerId)}))`;
