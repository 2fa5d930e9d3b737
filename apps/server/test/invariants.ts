import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../src/db/client.ts';

/**
 * Every denormalised counter that differs from the rows it counts, as readable lines
 * (empty when all agree): likes/dislikes of videos, tweets and comments, subscribers (local and remote),
 * views (while no view mark is older than the hour that prunes them), comments and replies.
 */
export async function counterMismatches(db: Executor): Promise<string[]> {
  const rows = await queryRows<{ what: string; id: string; stored: number; counted: number }>(
    db,
    sql`
      WITH reactions AS (
        SELECT id,
               count(*) FILTER (WHERE value = 1) AS up, count(*) FILTER (WHERE value = -1) AS down
        FROM (SELECT coalesce(video_id, tweet_id, comment_id) AS id, value FROM likes
              UNION ALL SELECT video_id, value FROM remote_video_rates) l GROUP BY 1
      )
      SELECT 'video likes' AS what, v.id, v.likes AS stored, coalesce(r.up, 0) AS counted FROM videos v LEFT JOIN reactions r ON r.id = v.id
      UNION ALL SELECT 'video dislikes', v.id, v.dislikes, coalesce(r.down, 0) FROM videos v LEFT JOIN reactions r ON r.id = v.id
      UNION ALL SELECT 'tweet likes', t.id, t.likes, coalesce(r.up, 0) FROM tweets t LEFT JOIN reactions r ON r.id = t.id
      UNION ALL SELECT 'tweet dislikes', t.id, t.dislikes, coalesce(r.down, 0) FROM tweets t LEFT JOIN reactions r ON r.id = t.id
      UNION ALL SELECT 'comment likes', c.id, c.likes, coalesce(r.up, 0) FROM comments c LEFT JOIN reactions r ON r.id = c.id
      UNION ALL SELECT 'comment dislikes', c.id, c.dislikes, coalesce(r.down, 0) FROM comments c LEFT JOIN reactions r ON r.id = c.id
      UNION ALL SELECT 'subscribers', u.id, u.subscriber_count,
        (SELECT count(*) FROM subscriptions s WHERE s.channel_id = u.id) + (SELECT count(*) FROM remote_followers f WHERE f.channel_id = u.id) FROM users u
      UNION ALL SELECT 'views', v.id, v.views, (SELECT count(*) FROM video_views w WHERE w.video_id = v.id) FROM videos v
      UNION ALL SELECT 'video comments', v.id, v.comments_count, (SELECT count(*) FROM comments c WHERE c.video_id = v.id) FROM videos v
      UNION ALL SELECT 'tweet comments', t.id, t.comments_count, (SELECT count(*) FROM comments c WHERE c.tweet_id = t.id) FROM tweets t
      UNION ALL SELECT 'replies', p.id, p.replies_count, (SELECT count(*) FROM comments c WHERE c.parent_id = p.id) FROM comments p`,
  );
  return rows.filter((r) => Number(r.stored) !== Number(r.counted)).map((r) => `${r.what} of ${r.id}: stored ${r.stored}, rows ${r.counted}`);
}

const userTables = async (db: Executor) =>
  (
    await queryRows<{ name: string }>(
      db,
      // Rate-limit windows count every request by design; they are not user data.
      sql`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'rate_limits' ORDER BY 1`,
    )
  ).map((r) => r.name);

/** One hash per table over all its rows: equal fingerprints before and after mean nothing changed. */
export async function dataFingerprint(db: Executor): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await userTables(db)) {
    const [row] = await queryRows<{ n: number; h: string | null }>(
      db,
      sql.raw(`SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM "${table}" t`),
    );
    out[table] = `${row!.n}:${row!.h ?? ''}`;
  }
  return out;
}

/** Stored text (table.column: value) holding a control character other than tab and line breaks. */
export async function storedControlCharacters(db: Executor): Promise<string[]> {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await queryRows<{ v: string }>(
      db,
      sql.raw(`SELECT "${column}" AS v FROM "${table}" WHERE "${column}" ~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]' LIMIT 5`),
    );
    found.push(...rows.map((r) => `${table}.${column}: ${JSON.stringify(r.v)}`));
  }
  return found;
}
