import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../src/db/client.ts';

/**
 * Every denormalised counter that differs from the rows it counts, as readable lines
 * (empty when all agree): likes/dislikes of videos, tweets and comments, subscribers,
 * views (while no view mark is older than the hour that prunes them), comments and replies.
 */
export async function counterMismatches(db: Executor): Promise<string[]> {
  const rows = await queryRows<{ what: string; id: string; stored: number; counted: number }>(
    db,
    sql`
      WITH reactions AS (
        SELECT coalesce(video_id, tweet_id, comment_id) AS id,
               count(*) FILTER (WHERE value = 1) AS up, count(*) FILTER (WHERE value = -1) AS down
        FROM likes GROUP BY 1
      )
      SELECT 'video likes' AS what, v.id, v.likes AS stored, coalesce(r.up, 0) AS counted FROM videos v LEFT JOIN reactions r ON r.id = v.id
      UNION ALL SELECT 'video dislikes', v.id, v.dislikes, coalesce(r.down, 0) FROM videos v LEFT JOIN reactions r ON r.id = v.id
      UNION ALL SELECT 'tweet likes', t.id, t.likes, coalesce(r.up, 0) FROM tweets t LEFT JOIN reactions r ON r.id = t.id
      UNION ALL SELECT 'tweet dislikes', t.id, t.dislikes, coalesce(r.down, 0) FROM tweets t LEFT JOIN reactions r ON r.id = t.id
      UNION ALL SELECT 'comment likes', c.id, c.likes, coalesce(r.up, 0) FROM comments c LEFT JOIN reactions r ON r.id = c.id
      UNION ALL SELECT 'comment dislikes', c.id, c.dislikes, coalesce(r.down, 0) FROM comments c LEFT JOIN reactions r ON r.id = c.id
      UNION ALL SELECT 'subscribers', u.id, u.subscriber_count, (SELECT count(*) FROM subscriptions s WHERE s.channel_id = u.id) FROM users u
      UNION ALL SELECT 'views', v.id, v.views, (SELECT count(*) FROM video_views w WHERE w.video_id = v.id) FROM videos v
      UNION ALL SELECT 'video comments', v.id, v.comments_count, (SELECT count(*) FROM comments c WHERE c.video_id = v.id) FROM videos v
      UNION ALL SELECT 'tweet comments', t.id, t.comments_count, (SELECT count(*) FROM comments c WHERE c.tweet_id = t.id) FROM tweets t
      UNION ALL SELECT 'replies', p.id, p.replies_count, (SELECT count(*) FROM comments c WHERE c.parent_id = p.id) FROM comments p`,
  );
  return rows.filter((r) => Number(r.stored) !== Number(r.counted)).map((r) => `${r.what} of ${r.id}: stored ${r.stored}, rows ${r.counted}`);
}
