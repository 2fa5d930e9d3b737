import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { TakedownNotice } from '@glimpse/contract';
import { toIso } from '../lib/time.ts';

/**
 * Content state (ARCHITECTURE §8, ADR 012), separate from privacy: moderators take a video, tweet
 * or comment down, and a suspended account's content is hidden with it. Its owner still sees it.
 */
export interface ModeratedColumns {
  takenDownAt: SQLWrapper;
  ownerId: SQLWrapper;
}

/**
 * The account is suspended now: the SQL twin of `isActive` (a suspension whose end date passed is
 * over). Partial index users_suspended keeps it a lookup in a tiny index.
 */
export function accountSuspended(userId: SQLWrapper): SQL {
  return sql`EXISTS (SELECT 1 FROM users su WHERE su.id = ${userId} AND su.state = 'suspended'
    AND (su.suspended_until IS NULL OR su.suspended_until > now()))`;
}

/** Not taken down, and its owner not suspended: what everyone but the owner may see. */
export function moderationClear(cols: ModeratedColumns): SQL {
  return sql`(${cols.takenDownAt} IS NULL AND NOT ${accountSuspended(cols.ownerId)})`;
}

/** The state columns of a taken-down item, as the repositories read them. */
export interface TakedownState {
  takenDownAt: Date | string | null;
  takedownReason: string | null;
  appealText: string | null;
  appealedAt: Date | string | null;
  appealClosedAt: Date | string | null;
}

/** The owner's notice of a take-down, or null while the item is visible. Only its owner can read a taken-down item. */
export function toTakedown(s: TakedownState): TakedownNotice | null {
  if (!s.takenDownAt) return null;
  return {
    reason: s.takedownReason ?? '',
    at: toIso(s.takenDownAt),
    appealText: s.appealText,
    appealedAt: s.appealedAt ? toIso(s.appealedAt) : null,
    appealClosed: s.appealClosedAt !== null,
  };
}

/** A suspended account's channel is hidden from everyone but itself (a 404 to others). */
export function accountVisibleTo(userId: SQLWrapper, viewerId: string | null): SQL {
  const shown = sql`NOT ${accountSuspended(userId)}`;
  return viewerId ? sql`(${shown} OR ${userId} = ${viewerId}::uuid)` : shown;
}
