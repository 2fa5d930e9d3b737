import { sql, type SQL } from 'drizzle-orm';
import { defaultEmailModes, type NotificationSubject, type NotificationType } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import type { PageWindow } from '../../lib/keyset.ts';

export interface NotificationRow {
  id: string;
  type: NotificationType;
  subject: NotificationSubject;
  read_at: Date | string | null;
  created_at: Date | string;
  actor_id: string | null;
  actor_user_name: string | null;
  actor_full_name: string | null;
  actor_avatar_key: string | null;
}

/** What one notification says, written to each of its recipients. */
export interface Delivery {
  eventId: string;
  type: NotificationType;
  actorId: string | null;
  subject: NotificationSubject;
}

/** The NOTIFY channel API processes listen on for new and read notifications. */
export const NOTIFY_CHANNEL = 'notifications';

/**
 * The recipient's mail mode for `type`: their setting, else the type's default; NULL when off.
 * Moderation outcomes are mailed by the moderation flow, never here.
 */
function emailModeOf(type: NotificationType): SQL {
  if (type === 'moderation') return sql`NULL`;
  const fallback = defaultEmailModes[type];
  return sql`NULLIF(COALESCE(ns.email_mode, ${fallback}), 'off')`;
}

/**
 * The insert of one delivery for the users `recipients` (a SELECT of user ids named `id`):
 * active accounts only, not those who blocked the actor from their channel, once per event.
 */
function deliver(d: Delivery, recipients: SQL): SQL {
  return sql`INSERT INTO notifications (user_id, event_id, type, actor_id, subject, email_mode)
    SELECT r.id, ${d.eventId}, ${d.type}, ${d.actorId}, ${JSON.stringify(d.subject)}::jsonb, ${emailModeOf(d.type)}
    FROM users r
    LEFT JOIN notification_settings ns ON ns.user_id = r.id AND ns.type = ${d.type}
    WHERE r.id IN (${recipients}) AND r.state = 'active'
      AND (${d.actorId}::uuid IS NULL OR (r.id <> ${d.actorId}::uuid
           AND NOT EXISTS (SELECT 1 FROM channel_blocks b WHERE b.channel_id = r.id AND b.user_id = ${d.actorId}::uuid)))
    ON CONFLICT (event_id, user_id) DO NOTHING`;
}

export class NotificationsRepository {
  constructor(private readonly db: Executor) {}

  /** Delivers to the given users (a few: an owner, a parent comment's author, mentioned users); the ids that got it. */
  async deliverTo(d: Delivery, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const ids = sql.join(
      userIds.map((u) => sql`${u}::uuid`),
      sql`, `,
    );
    const rows = await queryRows<{ user_id: string }>(this.db, sql`${deliver(d, ids)} RETURNING user_id`);
    return rows.map((r) => r.user_id);
  }

  /**
   * Delivers to the next `limit` subscribers of the channel after `after` (in id order); the last
   * subscriber id of the batch (the next cursor), or null when none was left. Idempotent: a batch
   * run again delivers nothing twice.
   */
  async deliverToSubscribers(d: Delivery, channelId: string, after: string | null, limit: number): Promise<string | null> {
    const [row] = await queryRows<{ last: string | null }>(
      this.db,
      sql`WITH batch AS (
            SELECT subscriber_id FROM subscriptions
            WHERE channel_id = ${channelId} AND (${after}::uuid IS NULL OR subscriber_id > ${after}::uuid)
            ORDER BY subscriber_id LIMIT ${limit}
          ), delivered AS (${deliver(d, sql`SELECT subscriber_id FROM batch`)} RETURNING 1)
          SELECT (SELECT max(subscriber_id::text) FROM batch) AS last, (SELECT count(*) FROM delivered) AS delivered`,
    );
    return row?.last ?? null;
  }

  /** Whether `actorId` already told `userId` of a subscription in the last day (a subscribe toggle repeated is told once). */
  async recentlySubscribed(userId: string, actorId: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`SELECT 1 FROM notifications WHERE user_id = ${userId} AND actor_id = ${actorId} AND type = 'newSubscriber'
            AND created_at > now() - interval '1 day' LIMIT 1`,
    );
    return rows.length > 0;
  }

  /** Users by user name (mentions), active ones only. */
  async idsByUserName(userNames: string[]): Promise<string[]> {
    if (userNames.length === 0) return [];
    const names = sql.join(
      userNames.map((n) => sql`${n}`),
      sql`, `,
    );
    const rows = await queryRows<{ id: string }>(this.db, sql`SELECT id FROM users WHERE user_name IN (${names}) AND state = 'active'`);
    return rows.map((r) => r.id);
  }

  async list(userId: string, unreadOnly: boolean, w: PageWindow): Promise<NotificationRow[]> {
    const after = w.after
      ? sql`AND (n.created_at, n.id) < (SELECT created_at, id FROM notifications WHERE id = ${w.after} AND user_id = ${userId})`
      : sql``;
    return queryRows<NotificationRow>(
      this.db,
      sql`SELECT n.id, n.type, n.subject, n.read_at, n.created_at,
                 a.id AS actor_id, a.user_name AS actor_user_name, a.full_name AS actor_full_name, a.avatar_key AS actor_avatar_key
          FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
          WHERE n.user_id = ${userId} ${unreadOnly ? sql`AND n.read_at IS NULL` : sql``} ${after}
          ORDER BY n.created_at DESC, n.id DESC
          LIMIT ${w.limit + 1} OFFSET ${w.offset}`,
    );
  }

  async unreadCount(userId: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(this.db, sql`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId} AND read_at IS NULL`);
    return row?.n ?? 0;
  }

  /** Marks the user's notification read; false when it is not theirs (or does not exist). */
  async markRead(userId: string, id: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE id = ${id} AND user_id = ${userId} RETURNING id`,
    );
    return rows.length > 0;
  }

  async markAllRead(userId: string): Promise<number> {
    const rows = await queryRows(this.db, sql`UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND read_at IS NULL RETURNING id`);
    return rows.length;
  }

  /**
   * The unread counts of `userIds` (the live connections of a process), in one statement; with
   * `eventId`, only of those the event reached (after a fan-out batch).
   */
  async unreadCounts(userIds: string[], eventId: string | null): Promise<{ user_id: string; unread: number }[]> {
    if (userIds.length === 0) return [];
    const ids = sql.join(
      userIds.map((u) => sql`${u}::uuid`),
      sql`, `,
    );
    const reached = eventId ? sql`AND EXISTS (SELECT 1 FROM notifications e WHERE e.event_id = ${eventId} AND e.user_id = r.id)` : sql``;
    return queryRows(
      this.db,
      sql`SELECT r.id AS user_id, (SELECT count(*)::int FROM notifications n WHERE n.user_id = r.id AND n.read_at IS NULL) AS unread
          FROM users r WHERE r.id IN (${ids}) ${reached}`,
    );
  }

  /** Tells every API process (LISTEN) that `message` happened: `e:<eventId>` or `u:<userId>`. */
  async notify(message: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_notify(${NOTIFY_CHANNEL}, ${message})`);
  }
}
