import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { roleAction, type QueueState, type ReportReason, type ReportTargetKind, type Role, type TakedownKind, type UserReportTargetKind } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { comments, moderationLog, reports, tweets, users, videos } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import type { PageWindow } from '../../lib/keyset.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { badRequest } from '../../lib/errors.ts';
import { commentLiveVisibleTo, commentShownTo, tweetShownTo, videoVisibleTo } from '../../policy/visibility.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';

/** A reported item with its owner and state, whatever its kind (one row shape for the queue, reports and actions). */
export interface TargetRow {
  target_kind: ReportTargetKind;
  target_id: string;
  /** False when the item no longer exists (deleted). */
  exists: boolean;
  label: string | null;
  text: string | null;
  video_id: string | null;
  tweet_id: string | null;
  /** The remote video a comment across servers is under. */
  remote_video_id: string | null;
  thumbnail_key: string | null;
  taken_down_at: Date | string | null;
  takedown_reason: string | null;
  appeal_text: string | null;
  appealed_at: Date | string | null;
  appeal_closed_at: Date | string | null;
  owner_id: string | null;
  owner_user_name: string | null;
  owner_full_name: string | null;
  owner_email: string | null;
  owner_role: 'user' | 'moderator' | 'admin' | null;
  owner_state: string | null;
  owner_state_reason: string | null;
  owner_suspended_until: Date | string | null;
}

/**
 * Joins of a (kind, id) pair named by `t.target_kind` / `t.target_id` to the item and its owner,
 * and the select list of a TargetRow. Exactly one of v/tw/c/ch/fc matches per row; a comment across
 * servers has an owner here only when a local user wrote it.
 */
/**
 * A comment across servers is stored as HTML (escaped text written here, sanitised remote HTML):
 * the queue shows it as text, so tags go and the entities either writer leaves are decoded (&amp; last).
 */
const fcText = sql.raw(
  `btrim(regexp_replace(replace(replace(replace(replace(replace(regexp_replace(fc.content, '<[^>]*>', ' ', 'g'),
    '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'), '\\s+', ' ', 'g'))`,
);
const targetSelect = sql`t.target_kind, t.target_id,
  (v.id IS NOT NULL OR tw.id IS NOT NULL OR c.id IS NOT NULL OR ch.id IS NOT NULL OR fc.id IS NOT NULL) AS exists,
  COALESCE(v.title, left(tw.content, 120), left(c.content, 120), ch.full_name, left(${fcText}, 120)) AS label,
  COALESCE(v.description, tw.content, c.content, ${fcText}) AS text,
  COALESCE(v.id, c.video_id, fc.local_video_id) AS video_id, COALESCE(tw.id, c.tweet_id) AS tweet_id,
  fc.remote_video_id, v.thumbnail_key,
  COALESCE(v.taken_down_at, tw.taken_down_at, c.taken_down_at) AS taken_down_at,
  COALESCE(v.takedown_reason, tw.takedown_reason, c.takedown_reason) AS takedown_reason,
  COALESCE(v.appeal_text, tw.appeal_text, c.appeal_text) AS appeal_text,
  COALESCE(v.appealed_at, tw.appealed_at, c.appealed_at) AS appealed_at,
  COALESCE(v.appeal_closed_at, tw.appeal_closed_at, c.appeal_closed_at) AS appeal_closed_at,
  o.id AS owner_id, o.user_name AS owner_user_name, o.full_name AS owner_full_name, o.email AS owner_email, o.role AS owner_role,
  o.state AS owner_state, o.state_reason AS owner_state_reason, o.suspended_until AS owner_suspended_until`;
const targetJoins = sql`
  LEFT JOIN videos v ON t.target_kind = 'video' AND v.id = t.target_id
  LEFT JOIN tweets tw ON t.target_kind = 'tweet' AND tw.id = t.target_id
  LEFT JOIN comments c ON t.target_kind = 'comment' AND c.id = t.target_id
  LEFT JOIN users ch ON t.target_kind = 'channel' AND ch.id = t.target_id
  LEFT JOIN federated_comments fc ON t.target_kind = 'federatedComment' AND fc.id = t.target_id
  LEFT JOIN users o ON o.id = COALESCE(v.owner_id, tw.owner_id, c.owner_id, ch.id, fc.author_user_id)`;

const contentTable = { video: sql.raw('videos'), tweet: sql.raw('tweets'), comment: sql.raw('comments') } as const;

export interface ReportWithTarget extends TargetRow {
  id: string;
  reason: ReportReason;
  report_text: string;
  state: 'open' | 'dismissed' | 'actioned';
  created_at: Date | string;
  resolved_at: Date | string | null;
}

export interface QueueRow extends TargetRow {
  last_at: Date | string;
  last_key: string;
  report_count: number;
}

export interface QueueReportRow {
  id: string;
  reason: ReportReason;
  text: string;
  state: 'open' | 'dismissed' | 'actioned';
  created_at: Date;
  reporter_id: string;
  reporter_user_name: string;
}

export interface LogWrite {
  /** Null for `npm run admin` (fromCli) and for an action whose actor is gone. */
  actorId: string | null;
  targetKind: ReportTargetKind;
  /** Null when the target is gone with the action (a deleted account). */
  targetId: string | null;
  action: string;
  reason: string;
  label: string | null;
  fromCli?: boolean;
}

/** A log entry with its target now (TargetRow: `exists` false once it is gone). */
export interface LogRow extends TargetRow {
  id: string;
  actor_id: string | null;
  actor_user_name: string | null;
  action: string;
  reason: string;
  created_at: Date | string;
  from_cli: boolean;
  target_label: string | null;
}

/** How the log names an account: "Full Name (@handle)". */
export const accountLabel = (a: { fullName: string; userName: string }): string => `${a.fullName} (@${a.userName})`;

/** How the log names a target: its label, a channel's with its handle; null when it is gone. */
export function targetLabel(r: TargetRow): string | null {
  if (!r.exists) return null;
  return r.target_kind === 'channel' && r.label !== null && r.owner_user_name !== null ? accountLabel({ fullName: r.label, userName: r.owner_user_name }) : r.label;
}

export interface Recipient {
  id: string;
  email: string;
  fullName: string;
}

export class ModerationRepository {
  constructor(private readonly db: Executor) {}

  /** The item (existing or not) and its owner. */
  async target(kind: ReportTargetKind, id: string): Promise<TargetRow> {
    const [row] = await queryRows<TargetRow>(
      this.db,
      sql`SELECT ${targetSelect} FROM (SELECT ${kind}::text AS target_kind, ${id}::uuid AS target_id) t ${targetJoins}`,
    );
    return row!;
  }

  /** Whether the viewer may see the item: each kind's own rule, as the routes that show it apply it. */
  async isVisible(kind: UserReportTargetKind, id: string, viewerId: string): Promise<boolean> {
    const one = { id: sql`1` };
    const checks = {
      video: () => this.db.select(one).from(videos).where(and(eq(videos.id, id), videoVisibleTo(viewerId))),
      tweet: () => this.db.select(one).from(tweets).where(and(eq(tweets.id, id), tweetShownTo(viewerId, false))),
      comment: () =>
        this.db
          .select(one)
          .from(comments)
          .leftJoin(videos, eq(videos.id, comments.videoId))
          .leftJoin(tweets, eq(tweets.id, comments.tweetId))
          .where(
            and(
              eq(comments.id, id),
              commentShownTo(viewerId, false),
              or(isNull(comments.videoId), videoVisibleTo(viewerId)),
              or(isNull(comments.tweetId), tweetShownTo(viewerId, false)),
              commentLiveVisibleTo(viewerId),
            ),
          ),
      // The channel page's rule: any account whose channel the viewer can open.
      channel: () => this.db.select(one).from(users).where(and(eq(users.id, id), accountVisibleTo(users.id, viewerId))),
    } satisfies Record<UserReportTargetKind, () => unknown>;
    return (await checks[kind]().limit(1)).length > 0;
  }

  async insertReport(row: { reporterId: string; targetKind: UserReportTargetKind; targetId: string; reason: ReportReason; text: string }): Promise<string> {
    const id = newId();
    await this.db.insert(reports).values({ id, ...row });
    return id;
  }

  /**
   * A report from a remote actor (an incoming Flag); false when that actor already has one open on
   * the target, or already has `maxOpenPerHost` open reports from its host (a server cannot flood the queue).
   */
  async insertRemoteReport(row: { reporterActorId: string; host: string; targetKind: ReportTargetKind; targetId: string; reason: ReportReason; text: string }, maxOpenPerHost: number): Promise<boolean> {
    const { host, ...values } = row;
    const [open] = await queryRows<{ n: number }>(
      this.db,
      sql`SELECT count(*)::int AS n FROM reports r JOIN remote_actors ra ON ra.id = r.reporter_actor_id WHERE r.state = 'open' AND ra.host = ${host}`,
    );
    if (open!.n >= maxOpenPerHost) return false;
    const inserted = await this.db.insert(reports).values({ id: newId(), ...values }).onConflictDoNothing().returning({ id: reports.id });
    return inserted.length > 0;
  }

  private reportsWithTargets(where: SQL, tail: SQL): Promise<ReportWithTarget[]> {
    return queryRows<ReportWithTarget>(
      this.db,
      sql`SELECT r.id, r.reason, r.text AS report_text, r.state, r.created_at, r.resolved_at, ${targetSelect}
          FROM reports r CROSS JOIN LATERAL (SELECT r.target_kind, r.target_id) t ${targetJoins}
          WHERE ${where} ${tail}`,
    );
  }

  /** The reporter's reports, newest first (keyset on created_at, id). */
  mine(reporterId: string, w: PageWindow): Promise<ReportWithTarget[]> {
    const after = w.after
      ? sql`AND (r.created_at, r.id) < (SELECT created_at, id FROM reports WHERE id = ${w.after} AND reporter_id = ${reporterId})`
      : sql``;
    return this.reportsWithTargets(
      sql`r.reporter_id = ${reporterId} ${after}`,
      sql`ORDER BY r.created_at DESC, r.id DESC LIMIT ${w.limit + 1} OFFSET ${w.offset}`,
    );
  }

  /**
   * One page of the queue: targets with reports in `state` (or with an appeal waiting), most
   * recent activity first, keyset on (last activity, target id).
   */
  async queue(state: QueueState, kind: ReportTargetKind | undefined, limit: number, offset: number, cursor?: CursorValue[]): Promise<QueueRow[]> {
    const kindFilter = (col: SQL) => (kind ? sql`AND ${col} = ${kind}` : sql``);
    const grouped =
      state === 'appealed'
        ? sql.join(
            (['video', 'tweet', 'comment'] as const)
              .filter((k) => !kind || kind === k)
              .map(
                (k) => sql`SELECT ${k}::text AS target_kind, x.id AS target_id, x.appealed_at AS last_at,
                  (SELECT count(*) FROM reports r WHERE r.target_kind = ${k} AND r.target_id = x.id)::int AS report_count
                  FROM ${contentTable[k]} x
                  WHERE x.taken_down_at IS NOT NULL AND x.appealed_at IS NOT NULL AND x.appeal_closed_at IS NULL`,
              ),
            sql` UNION ALL `,
          )
        : sql`SELECT r.target_kind, r.target_id, max(COALESCE(r.resolved_at, r.created_at)) AS last_at, count(*)::int AS report_count
              FROM reports r WHERE r.state = ${state} ${kindFilter(sql.raw('r.target_kind'))}
              GROUP BY r.target_kind, r.target_id`;
    // Only what can be taken down is appealed.
    if (state === 'appealed' && (kind === 'channel' || kind === 'federatedComment')) return [];
    if (cursor && (typeof cursor[0] !== 'string' || Number.isNaN(Date.parse(cursor[0])) || typeof cursor[1] !== 'string')) {
      throw badRequest('Invalid cursor');
    }
    const after = cursor ? sql`WHERE (g.last_at, g.target_id) < (${cursor[0]}::timestamptz, ${cursor[1]}::uuid)` : sql``;
    return queryRows<QueueRow>(
      this.db,
      sql`WITH g AS (${grouped}), page AS (
            SELECT * FROM g ${after} ORDER BY g.last_at DESC, g.target_id DESC LIMIT ${limit + 1} ${cursor ? sql`` : sql`OFFSET ${offset}`}
          )
          SELECT ${targetSelect}, t.last_at, t.last_at::text AS last_key, t.report_count
          FROM page t ${targetJoins}
          ORDER BY t.last_at DESC, t.target_id DESC`,
    );
  }

  /** The newest reports of a target (all states, or one), with their reporters. */
  targetReports(kind: ReportTargetKind, id: string, state: QueueState, limit: number): Promise<QueueReportRow[]> {
    const stateFilter = state === 'appealed' ? sql`` : sql`AND r.state = ${state}`;
    return queryRows<QueueReportRow>(
      this.db,
      // A report from another server (an incoming Flag) names its remote account as name@host.
      sql`SELECT r.id, r.reason, r.text, r.state, r.created_at, COALESCE(u.id, ra.id) AS reporter_id,
            COALESCE(u.user_name, ra.preferred_username || '@' || ra.host) AS reporter_user_name
          FROM reports r LEFT JOIN users u ON u.id = r.reporter_id LEFT JOIN remote_actors ra ON ra.id = r.reporter_actor_id
          WHERE r.target_kind = ${kind} AND r.target_id = ${id} ${stateFilter}
          ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit}`,
    );
  }

  /**
   * Resolves the target's open reports: how many, and their local reporters (each once) to tell
   * them the outcome (a report from another server, an incoming Flag, has none here).
   */
  async resolveOpen(kind: ReportTargetKind, id: string, state: 'dismissed' | 'actioned', actorId: string): Promise<{ resolved: number; reporters: Recipient[] }> {
    const rows = await queryRows<{ id: string | null; email: string | null; fullName: string | null; n: number }>(
      this.db,
      sql`WITH done AS (
            UPDATE reports SET state = ${state}, resolved_at = now(), resolved_by = ${actorId}
            WHERE target_kind = ${kind} AND target_id = ${id} AND state = 'open' RETURNING reporter_id
          )
          SELECT u.id, u.email, u.full_name AS "fullName", count(*)::int AS n FROM done LEFT JOIN users u ON u.id = done.reporter_id
          GROUP BY u.id, u.email, u.full_name`,
    );
    return {
      resolved: rows.reduce((sum, r) => sum + r.n, 0),
      reporters: rows.flatMap((r) => (r.id && r.email && r.fullName !== null ? [{ id: r.id, email: r.email, fullName: r.fullName }] : [])),
    };
  }

  /** Locks the content row; undefined when it does not exist. */
  async lockContent(kind: TakedownKind, id: string): Promise<{ owner_id: string; taken_down_at: Date | null; appealed_at: Date | null; appeal_closed_at: Date | null } | undefined> {
    const [row] = await queryRows<{ owner_id: string; taken_down_at: Date | null; appealed_at: Date | null; appeal_closed_at: Date | null }>(
      this.db,
      sql`SELECT owner_id, taken_down_at, appealed_at, appeal_closed_at FROM ${contentTable[kind]} WHERE id = ${id} FOR NO KEY UPDATE`,
    );
    return row;
  }

  /**
   * Takes the item down (a video also draws a new media token: its old public URLs, and any
   * CDN copy keyed by them, stop being served) or restores it (a new token again: fresh URLs).
   */
  async setTakenDown(kind: TakedownKind, id: string, down: { actorId: string; reason: string } | null): Promise<void> {
    const token = kind === 'video' ? sql`, media_token = DEFAULT` : sql``;
    const set = down
      ? sql`taken_down_at = now(), taken_down_by = ${down.actorId}, takedown_reason = ${down.reason}`
      : sql`taken_down_at = NULL, taken_down_by = NULL, takedown_reason = NULL`;
    await this.db.execute(
      sql`UPDATE ${contentTable[kind]} SET ${set}, appeal_text = NULL, appealed_at = NULL, appeal_closed_at = NULL ${token} WHERE id = ${id}`,
    );
  }

  async appeal(kind: TakedownKind, id: string, text: string): Promise<void> {
    await this.db.execute(sql`UPDATE ${contentTable[kind]} SET appeal_text = ${text}, appealed_at = now() WHERE id = ${id}`);
  }

  async closeAppeal(kind: TakedownKind, id: string): Promise<void> {
    await this.db.execute(sql`UPDATE ${contentTable[kind]} SET appeal_closed_at = now() WHERE id = ${id}`);
  }

  /**
   * One entry of the log, in the action's transaction. `label` names the target as it is now (a
   * video's title, a channel's `targetLabel`...), so the entry still reads once the target is gone.
   */
  async log(entry: LogWrite): Promise<void> {
    const { label, ...row } = entry;
    await this.db.insert(moderationLog).values({ id: newId(), ...row, targetLabel: label });
  }

  /** A role change, when the role did change: `role.<new role>` about the account, by an admin or (actor null) `npm run admin`. */
  async logRoleChange(actorId: string | null, before: Role, after: { id: string; fullName: string; userName: string; role: Role }): Promise<void> {
    if (before === after.role) return;
    await this.log({
      actorId,
      fromCli: actorId === null,
      targetKind: 'channel',
      targetId: after.id,
      action: roleAction(after.role),
      reason: '',
      label: accountLabel(after),
    });
  }

  /**
   * After an account is deleted: reports about anything that no longer exists (its channel and
   * content, and what went with them) are removed, and the log entries about them forget the id.
   */
  async forgetGoneTargets(): Promise<void> {
    const gone = (t: string) =>
      sql.raw(`(${t}.target_kind = 'video' AND NOT EXISTS (SELECT 1 FROM videos x WHERE x.id = ${t}.target_id))
        OR (${t}.target_kind = 'tweet' AND NOT EXISTS (SELECT 1 FROM tweets x WHERE x.id = ${t}.target_id))
        OR (${t}.target_kind = 'comment' AND NOT EXISTS (SELECT 1 FROM comments x WHERE x.id = ${t}.target_id))
        OR (${t}.target_kind = 'federatedComment' AND NOT EXISTS (SELECT 1 FROM federated_comments x WHERE x.id = ${t}.target_id))
        OR (${t}.target_kind IN ('channel', 'user') AND NOT EXISTS (SELECT 1 FROM users x WHERE x.id = ${t}.target_id))`);
    await this.db.execute(sql`DELETE FROM reports r WHERE ${gone('r')}`);
    await this.db.execute(sql`UPDATE moderation_log l SET target_id = NULL, target_label = NULL WHERE l.target_id IS NOT NULL AND (${gone('l')})`);
  }

  /** Newest first, each entry with its actor's handle and its target as it is now (keyset on created_at, id). */
  logPage(w: PageWindow): Promise<LogRow[]> {
    const after = w.after ? sql`WHERE (l.created_at, l.id) < (SELECT created_at, id FROM moderation_log WHERE id = ${w.after})` : sql``;
    return queryRows<LogRow>(
      this.db,
      sql`WITH page AS (
            SELECT * FROM moderation_log l ${after} ORDER BY l.created_at DESC, l.id DESC LIMIT ${w.limit + 1} OFFSET ${w.offset}
          )
          SELECT l.id, l.actor_id, a.user_name AS actor_user_name, l.action, l.reason, l.created_at, l.from_cli, l.target_label, ${targetSelect}
          FROM page l LEFT JOIN users a ON a.id = l.actor_id
          CROSS JOIN LATERAL (SELECT l.target_kind, l.target_id) t ${targetJoins}
          ORDER BY l.created_at DESC, l.id DESC`,
    );
  }

  async recipients(userIds: string[]): Promise<Recipient[]> {
    if (userIds.length === 0) return [];
    return this.db.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users).where(inArray(users.id, userIds));
  }

  async lockUser(userId: string) {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId)).for('no key update');
    return row;
  }

  async setAccountState(userId: string, s: { state: 'active' | 'suspended'; reason: string | null; until: Date | null }): Promise<void> {
    await this.db
      .update(users)
      .set({ state: s.state, stateReason: s.reason, suspendedUntil: s.until, updatedAt: new Date() })
      .where(eq(users.id, userId));
  }
}
