import type { AdminUsersQuery } from '@glimpse/contract';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { TRANSCODE_QUEUE } from '../transcode/queue.ts';

/** How many failed videos the overview lists (the newest first). */
const FAILED_SHOWN = 50;

const count = (filter: SQL) => sql<number>`count(*) FILTER (WHERE ${filter})::int`;

/** The staff area's reads over every account and video (ARCHITECTURE §8). */
export class AdminRepository {
  constructor(private readonly db: Executor) {}

  async userCounts() {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        newThisWeek: count(sql`${users.createdAt} > now() - interval '7 days'`),
        pendingApproval: count(sql`${users.state} = 'pending_approval'`),
        // A suspension whose end has passed is over (account-state.ts isActive).
        suspended: count(sql`${users.state} = 'suspended' AND (${users.suspendedUntil} IS NULL OR ${users.suspendedUntil} > now())`),
        storageBytes: sql<number>`coalesce(sum(${users.storageBytes}), 0)::float8`,
      })
      .from(users);
    return row!;
  }

  async videoCounts() {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        ready: count(sql`${videos.status} = 'ready'`),
        processing: count(sql`${videos.status} = 'processing'`),
        failed: count(sql`${videos.status} = 'failed'`),
      })
      .from(videos);
    return row!;
  }

  /** Items with an open report (one per item, as the queue groups them), and appeals not yet answered. */
  async moderationCounts(): Promise<{ openReports: number; appeals: number }> {
    const appealed = (table: string) =>
      sql.raw(`(SELECT count(*) FROM ${table} WHERE taken_down_at IS NOT NULL AND appealed_at IS NOT NULL AND appeal_closed_at IS NULL)`);
    const [row] = await queryRows<{ openReports: number; appeals: number }>(
      this.db,
      sql`SELECT (SELECT count(*) FROM (SELECT DISTINCT target_kind, target_id FROM reports WHERE state = 'open') o)::int AS "openReports",
                 (${appealed('videos')} + ${appealed('tweets')} + ${appealed('comments')})::int AS appeals`,
    );
    return row!;
  }

  async transcodeJobs(): Promise<{ queued: number; running: number }> {
    const [row] = await queryRows<{ queued: number; running: number }>(
      this.db,
      sql`SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued, count(*) FILTER (WHERE status = 'running')::int AS running
          FROM jobs WHERE queue = ${TRANSCODE_QUEUE}`,
    );
    return row!;
  }

  async failedVideos() {
    return this.db
      .select({ videoId: videos.id, title: videos.title, ownerUserName: users.userName, reason: videos.failureReason, failedAt: videos.updatedAt })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(eq(videos.status, 'failed'))
      .orderBy(desc(videos.updatedAt), desc(videos.id))
      .limit(FAILED_SHOWN);
  }

  /** Accounts newest first, narrowed by a search text and a state; `limit + 1` rows. */
  async users(q: Pick<AdminUsersQuery, 'q' | 'state'>, w: PageWindow) {
    const like = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
    const where = and(
      like ? or(ilike(users.userName, like), ilike(users.fullName, like), ilike(users.email, like)) : undefined,
      q.state ? eq(users.state, q.state) : undefined,
      afterCursor(users, users.createdAt, users.id, w.after),
    );
    return this.db
      .select({
        user: users,
        // Spelled out: Drizzle leaves a lone table's columns unqualified, which the subquery would read as its own.
        videos: sql<number>`(SELECT count(*) FROM videos v WHERE v.owner_id = users.id)::int`,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }
}
