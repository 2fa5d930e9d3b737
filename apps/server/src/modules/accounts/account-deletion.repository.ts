import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

export interface DeletedAccount {
  id: string;
  email: string;
  full_name: string;
  user_name: string;
  role: string;
  avatar_key: string | null;
  cover_key: string | null;
}

const reactionTargets = [
  { table: 'videos', column: 'video_id' },
  { table: 'tweets', column: 'tweet_id' },
  { table: 'comments', column: 'comment_id' },
] as const;

/**
 * Removes an account's rows (the users row cascades to every table that references it, see
 * migrations) and corrects the counters of what others own, in the caller's transaction.
 */
export class AccountDeletionRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The inboxes of the servers that knew the account through federation (its channel's remote
   * followers, the remote channels it followed), shared inboxes once each, read before the rows go.
   */
  async federatedInboxes(userId: string, limit = 10_000): Promise<string[]> {
    const rows = await queryRows<{ inbox: string }>(
      this.db,
      sql`SELECT DISTINCT COALESCE(a.shared_inbox, a.inbox) AS inbox FROM remote_actors a
          WHERE a.id IN (SELECT actor_id FROM remote_followers WHERE channel_id = ${userId} UNION SELECT actor_id FROM remote_follows WHERE user_id = ${userId})
          LIMIT ${limit}`,
    );
    return rows.map((r) => r.inbox);
  }

  /**
   * Locks the account FOR UPDATE: a row being inserted that references it (a like, a comment, a
   * subscription: the foreign key's share lock) is waited for, and none can start until we end.
   */
  async lock(userId: string): Promise<DeletedAccount | undefined> {
    const [row] = await queryRows<DeletedAccount>(
      this.db,
      sql`SELECT id, email, full_name, user_name, role, avatar_key, cover_key FROM users WHERE id = ${userId} FOR UPDATE`,
    );
    return row;
  }

  /** How many admins there are, their rows locked (two admins deleting each other cannot both pass). */
  async lockAdmins(): Promise<number> {
    const rows = await queryRows<{ id: string }>(this.db, sql`SELECT id FROM users WHERE role = 'admin' ORDER BY id FOR UPDATE`);
    return rows.length;
  }

  /** The rows whose files the account owns (videos, tweets with an image), read before they go. */
  async fileOwners(userId: string): Promise<{ videoIds: string[]; imageTweetIds: string[]; liveIds: string[] }> {
    const videoIds = await queryRows<{ id: string }>(this.db, sql`SELECT id FROM videos WHERE owner_id = ${userId}`);
    const tweets = await queryRows<{ id: string }>(this.db, sql`SELECT id FROM tweets WHERE owner_id = ${userId} AND image_key IS NOT NULL`);
    const lives = await queryRows<{ id: string }>(this.db, sql`SELECT id FROM lives WHERE owner_id = ${userId}`);
    return { videoIds: videoIds.map((r) => r.id), imageTweetIds: tweets.map((r) => r.id), liveIds: lives.map((r) => r.id) };
  }

  /** Takes the account's likes and dislikes off what others own (its own content goes whole). */
  async withdrawReactions(userId: string): Promise<void> {
    for (const { table, column } of reactionTargets) {
      await this.db.execute(
        sql`UPDATE ${sql.identifier(table)} AS t SET likes = t.likes - r.l, dislikes = t.dislikes - r.d
            FROM (SELECT ${sql.identifier(column)} AS id, count(*) FILTER (WHERE value = 1)::int AS l, count(*) FILTER (WHERE value = -1)::int AS d
                  FROM likes WHERE user_id = ${userId} AND ${sql.identifier(column)} IS NOT NULL GROUP BY 1) AS r
            WHERE t.id = r.id AND t.owner_id <> ${userId}`,
      );
    }
  }

  /** The channels the account subscribed to lose it from their counts. */
  async withdrawSubscriptions(userId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE users SET subscriber_count = subscriber_count - 1
          WHERE id IN (SELECT channel_id FROM subscriptions WHERE subscriber_id = ${userId}) AND id <> ${userId}`,
    );
  }

  /**
   * Deletes the account's comments with the replies under them (as deleting one comment does:
   * a thread does not outlive its first message), and corrects the counters of the videos, tweets
   * and parent comments others own.
   */
  async deleteComments(userId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.db,
      sql`WITH RECURSIVE subtree AS (
            SELECT id FROM comments WHERE owner_id = ${userId}
            UNION
            SELECT c.id FROM comments c JOIN subtree s ON c.parent_id = s.id
          ),
          gone AS (DELETE FROM comments WHERE id IN (SELECT id FROM subtree) RETURNING id, parent_id, video_id, tweet_id, review_state),
          -- The counters count published comments only (comments.service).
          counted AS (SELECT * FROM gone WHERE review_state = 'published'),
          v AS (UPDATE videos SET comments_count = comments_count - g.n
                FROM (SELECT video_id, count(*)::int AS n FROM counted WHERE video_id IS NOT NULL GROUP BY video_id) g
                WHERE videos.id = g.video_id),
          t AS (UPDATE tweets SET comments_count = comments_count - g.n
                FROM (SELECT tweet_id, count(*)::int AS n FROM counted WHERE tweet_id IS NOT NULL GROUP BY tweet_id) g
                WHERE tweets.id = g.tweet_id),
          p AS (UPDATE comments SET replies_count = replies_count - g.n
                FROM (SELECT parent_id, count(*)::int AS n FROM counted
                      WHERE parent_id IS NOT NULL AND parent_id NOT IN (SELECT id FROM gone) GROUP BY parent_id) g
                WHERE comments.id = g.parent_id)
          -- Data-modifying CTEs run to completion whether or not the main query reads them.
          SELECT count(*)::int AS n FROM gone`,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Jobs that belong to nobody (mails: a moderation outcome, a reset link) keep a copy of what
   * they send: those naming the account, its email or its content go too, unless running now.
   * So do events not yet told and others' notifications that name the account or its content
   * (what it said in a comment, its videos' titles). Run before the content is deleted (its ids are read here).
   */
  async deleteJobsNaming(userId: string, email: string): Promise<void> {
    const named = sql`named AS (
            SELECT ${userId}::text AS s UNION ALL SELECT ${email}::text
            UNION ALL SELECT id::text FROM videos WHERE owner_id = ${userId}
            UNION ALL SELECT id::text FROM tweets WHERE owner_id = ${userId}
            UNION ALL SELECT id::text FROM comments WHERE owner_id = ${userId})`;
    await this.db.execute(
      sql`WITH ${named} DELETE FROM jobs j
          WHERE j.owner_id IS NULL AND j.status <> 'running' AND EXISTS (SELECT 1 FROM named WHERE strpos(j.payload::text, named.s) > 0)`,
    );
    await this.db.execute(sql`WITH ${named} DELETE FROM events e WHERE EXISTS (SELECT 1 FROM named WHERE strpos(e.payload::text, named.s) > 0)`);
    await this.db.execute(
      sql`WITH ${named} DELETE FROM notifications n
          WHERE n.actor_id = ${userId} OR EXISTS (SELECT 1 FROM named WHERE strpos(n.subject::text, named.s) > 0)`,
    );
  }

  /**
   * The users row, and with it (ON DELETE CASCADE) videos, tweets, likes, subscriptions both ways,
   * playlists, history, sessions, mail tokens, upload sessions, upload records, queued jobs, its
   * events and notifications; then the rows that name the account without a foreign key (upload
   * chunks, the hourly view marks of the videos it watched, rate-limit windows).
   */
  async deleteAccount(userId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM upload_chunks WHERE user_id = ${userId}`);
    await this.db.execute(sql`DELETE FROM video_views WHERE viewer_key = ${`u:${userId}`}`);
    await this.db.execute(sql`DELETE FROM rate_limits WHERE key LIKE ${`%${userId}%`}`);
    await this.db.execute(sql`DELETE FROM users WHERE id = ${userId}`);
  }
}
