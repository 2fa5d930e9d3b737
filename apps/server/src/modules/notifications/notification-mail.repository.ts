import { sql, type SQL } from 'drizzle-orm';
import type { EmailMode, MailableType, NotificationSubject, NotificationType } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';

/** A claim older than this belongs to a worker that died mid-send: the rows are free again. */
export const MAIL_LEASE_SECONDS = 15 * 60;
/** At most one digest per user in this many hours. */
export const DIGEST_HOURS = 24;

export interface MailRow {
  id: string;
  user_id: string;
  type: NotificationType;
  subject: NotificationSubject;
  actor_id: string | null;
  actor_user_name: string | null;
  actor_full_name: string | null;
}

export interface InstantMailRow extends MailRow {
  email: string;
  full_name: string;
  /** An active account with a verified address: the only ones mailed. */
  mailable: boolean;
}

/** Rows nobody is mailing now: never claimed, or claimed by a worker that stopped. */
const unclaimed = sql`n.emailed_at IS NULL AND (n.mail_claimed_at IS NULL OR n.mail_claimed_at < now() - make_interval(secs => ${MAIL_LEASE_SECONDS}))`;
const mailableUser = sql`u.state = 'active' AND u.email_verified_at IS NOT NULL`;
/** Users due a digest: unread digest rows waiting, and no digest in the last DIGEST_HOURS. */
const digestDue = sql`n.email_mode = 'digest' AND n.read_at IS NULL AND ${unclaimed} AND ${mailableUser}
  AND NOT EXISTS (SELECT 1 FROM notification_digests d WHERE d.user_id = n.user_id AND d.sent_at > now() - make_interval(hours => ${DIGEST_HOURS}))`;
const ids = (list: string[]) =>
  sql.join(
    list.map((i) => sql`${i}::uuid`),
    sql`, `,
  );
/** The claimed rows `claimed` (a CTE) with their actor's names. */
const withActor = (extra: SQL) =>
  sql`SELECT c.id, c.user_id, c.type, c.subject, c.actor_id, a.user_name AS actor_user_name, a.full_name AS actor_full_name ${extra}
      FROM claimed c LEFT JOIN users a ON a.id = c.actor_id`;

/** Mail preferences and the claims of the mail job (ARCHITECTURE §10). */
export class NotificationMailRepository {
  constructor(private readonly db: Executor) {}

  async settingsOf(userId: string): Promise<{ type: string; email_mode: EmailMode }[]> {
    return queryRows(this.db, sql`SELECT type, email_mode FROM notification_settings WHERE user_id = ${userId}`);
  }

  /**
   * Saves one type's mode, and moves the rows not mailed yet to it: turning a type off stops mails
   * already waiting. Rows that were not to be mailed stay so (turning a type on mails no old ones).
   * Nothing happens for a user that no longer exists.
   */
  async saveSetting(userId: string, type: MailableType, mode: EmailMode): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO notification_settings (user_id, type, email_mode) SELECT id, ${type}, ${mode} FROM users WHERE id = ${userId}
          ON CONFLICT (user_id, type) DO UPDATE SET email_mode = EXCLUDED.email_mode`,
    );
    await this.db.execute(
      sql`UPDATE notifications SET email_mode = NULLIF(${mode}, 'off')
          WHERE user_id = ${userId} AND type = ${type} AND email_mode IS NOT NULL AND emailed_at IS NULL`,
    );
  }

  /** Whether a fan-out left rows of the event to mail at once. */
  async hasInstant(eventId: string): Promise<boolean> {
    const rows = await queryRows(this.db, sql`SELECT 1 FROM notifications WHERE event_id = ${eventId} AND email_mode = 'instant' AND emailed_at IS NULL LIMIT 1`);
    return rows.length > 0;
  }

  /** Whether anything is due: an instant row nobody mails, or a user due a digest. */
  async anyDue(): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`SELECT 1 WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.email_mode = 'instant' AND ${unclaimed})
             OR EXISTS (SELECT 1 FROM notifications n JOIN users u ON u.id = n.user_id WHERE ${digestDue})`,
    );
    return rows.length > 0;
  }

  /** Claims up to `limit` instant rows, oldest first; SKIP LOCKED and the claim keep two workers off one row. */
  async claimInstant(limit: number): Promise<InstantMailRow[]> {
    return queryRows<InstantMailRow>(
      this.db,
      sql`WITH due AS (
            SELECT n.id FROM notifications n WHERE n.email_mode = 'instant' AND ${unclaimed}
            ORDER BY n.created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ), claimed AS (
            UPDATE notifications n SET mail_claimed_at = now() FROM due WHERE n.id = due.id AND ${unclaimed}
            RETURNING n.id, n.user_id, n.type, n.subject, n.actor_id, n.created_at
          )
          SELECT q.*, u.email, u.full_name, (${mailableUser}) AS mailable
          FROM (${withActor(sql`, c.created_at`)}) q JOIN users u ON u.id = q.user_id
          ORDER BY q.created_at`,
    );
  }

  /** Up to `limit` users due a digest. */
  async dueDigestUsers(limit: number): Promise<{ id: string; email: string; full_name: string }[]> {
    return queryRows(
      this.db,
      sql`SELECT u.id, u.email, u.full_name FROM users u
          WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = u.id AND ${digestDue})
          LIMIT ${limit}`,
    );
  }

  /**
   * Takes the user's digest turn: true for one caller only, and only when the last digest went out
   * DIGEST_HOURS ago or never. Undone by `releaseDigest` when the mail could not go.
   */
  async takeDigestTurn(userId: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`INSERT INTO notification_digests (user_id, sent_at) VALUES (${userId}, now())
          ON CONFLICT (user_id) DO UPDATE SET sent_at = now()
            WHERE notification_digests.sent_at <= now() - make_interval(hours => ${DIGEST_HOURS})
          RETURNING user_id`,
    );
    return rows.length > 0;
  }

  /** No digest went out: the user is due again (their last one was over DIGEST_HOURS ago). */
  async releaseDigest(userId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM notification_digests WHERE user_id = ${userId}`);
  }

  /**
   * Claims the user's waiting digest rows; returns the newest `limit` unread ones and how many unread
   * were claimed. Read ones are claimed too (and marked with the digest) but not listed.
   */
  async claimDigest(userId: string, limit: number): Promise<{ items: MailRow[]; unread: number }> {
    const rows = await queryRows<MailRow & { unread: number }>(
      this.db,
      sql`WITH claimed AS (
            UPDATE notifications n SET mail_claimed_at = now()
            WHERE n.user_id = ${userId} AND n.email_mode = 'digest' AND ${unclaimed}
            RETURNING n.id, n.user_id, n.type, n.subject, n.actor_id, n.read_at, n.created_at
          )
          SELECT * FROM (${withActor(sql`, c.read_at, c.created_at, count(*) FILTER (WHERE c.read_at IS NULL) OVER ()::int AS unread`)}) q
          WHERE q.read_at IS NULL ORDER BY q.created_at DESC LIMIT ${limit}`,
    );
    return { items: rows, unread: rows[0]?.unread ?? 0 };
  }

  /** The claimed rows went out (or were not to be mailed): done. */
  async markEmailed(rowIds: string[]): Promise<void> {
    if (rowIds.length === 0) return;
    await this.db.execute(sql`UPDATE notifications SET emailed_at = now() WHERE id IN (${ids(rowIds)})`);
  }

  /** The user's claimed digest rows went out. */
  async markDigestEmailed(userId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE notifications n SET emailed_at = now()
          WHERE n.user_id = ${userId} AND n.email_mode = 'digest' AND n.emailed_at IS NULL AND n.mail_claimed_at IS NOT NULL`,
    );
  }

  /** SMTP failed: the rows wait for the next try. */
  async release(rowIds: string[]): Promise<void> {
    if (rowIds.length === 0) return;
    await this.db.execute(sql`UPDATE notifications SET mail_claimed_at = NULL WHERE id IN (${ids(rowIds)}) AND emailed_at IS NULL`);
  }

  /** SMTP failed for a digest: its rows wait for the next try. */
  async releaseDigestRows(userId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE notifications SET mail_claimed_at = NULL WHERE user_id = ${userId} AND email_mode = 'digest' AND emailed_at IS NULL`,
    );
  }
}
