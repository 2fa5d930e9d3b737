import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { videoVisibleTo } from '../../policy/visibility.ts';

/** A row of an export section: `k` is its keyset position (dropped from the output). */
export type ExportRow = { k: string } & Record<string, unknown>;

/**
 * Rows that hang on a video (a like, a history entry, a comment, a playlist entry) are exported only
 * while the account may see that video (videoVisibility): the export reveals nothing the app hides.
 */
const seesVideo = (u: string, column: SQL) =>
  sql`(${column} IS NULL OR EXISTS (SELECT 1 FROM videos WHERE videos.id = ${column} AND ${videoVisibleTo(u)}))`;

/**
 * One section of the export: the account's own rows only, and of others' content nothing but ids
 * and public names. `after` is the last `k` of the previous page ('' before the first).
 */
const sections = {
  videos: (u: string, after: string) =>
    sql`SELECT id::text AS k, id, title, description, duration, width, height, views, likes, dislikes,
               comments_count AS "commentsCount", privacy = 'public' AS "isPublished", privacy, publish_at AS "publishAt", downloads_enabled AS "downloadsEnabled", status,
               (source_bytes + media_bytes + thumbnail_bytes)::float8 AS "storageBytes", created_at AS "createdAt", updated_at AS "updatedAt"
        FROM videos WHERE owner_id = ${u} AND id::text > ${after}`,
  tweets: (u: string, after: string) =>
    sql`SELECT id::text AS k, id, content, image_key IS NOT NULL AS "hasImage", review_state AS "reviewState", likes, dislikes, comments_count AS "commentsCount",
               created_at AS "createdAt", updated_at AS "updatedAt"
        FROM tweets WHERE owner_id = ${u} AND id::text > ${after}`,
  comments: (u: string, after: string) =>
    sql`SELECT id::text AS k, id, content, video_id AS "videoId", tweet_id AS "tweetId", parent_id AS "parentId", review_state AS "reviewState", likes, dislikes,
               created_at AS "createdAt", updated_at AS "updatedAt"
        FROM comments WHERE owner_id = ${u} AND id::text > ${after} AND ${seesVideo(u, sql`comments.video_id`)}`,
  playlists: (u: string, after: string) =>
    sql`SELECT p.id::text AS k, p.id, p.name, p.description, p.created_at AS "createdAt", p.updated_at AS "updatedAt",
               coalesce((SELECT json_agg(pv.video_id ORDER BY pv.position) FROM playlist_videos pv
                         WHERE pv.playlist_id = p.id AND ${seesVideo(u, sql`pv.video_id`)}), '[]'::json) AS "videoIds"
        FROM playlists p WHERE p.owner_id = ${u} AND p.id::text > ${after}`,
  watchHistory: (u: string, after: string) =>
    sql`SELECT video_id::text AS k, video_id AS "videoId", watched_at AS "watchedAt", position_seconds AS "positionSeconds"
        FROM watch_history WHERE user_id = ${u} AND video_id::text > ${after} AND ${seesVideo(u, sql`watch_history.video_id`)}`,
  likes: (u: string, after: string) =>
    sql`SELECT id::text AS k, CASE WHEN value = 1 THEN 'like' ELSE 'dislike' END AS reaction,
               video_id AS "videoId", tweet_id AS "tweetId", comment_id AS "commentId", created_at AS "createdAt"
        FROM likes WHERE user_id = ${u} AND id::text > ${after} AND ${seesVideo(u, sql`likes.video_id`)}
          AND ${seesVideo(u, sql`(SELECT c.video_id FROM comments c WHERE c.id = likes.comment_id)`)}`,
  subscriptions: (u: string, after: string) =>
    sql`SELECT s.channel_id::text AS k, s.channel_id AS "channelId", c.user_name AS "userName", s.created_at AS "subscribedAt"
        FROM subscriptions s JOIN users c ON c.id = s.channel_id WHERE s.subscriber_id = ${u} AND s.channel_id::text > ${after}`,
} satisfies Record<string, (userId: string, after: string) => SQL>;

export type ExportSection = keyof typeof sections;
export const EXPORT_SECTIONS = Object.keys(sections) as ExportSection[];

export class ExportRepository {
  constructor(private readonly db: Executor) {}

  async profile(userId: string) {
    const [row] = await queryRows<Record<string, unknown>>(
      this.db,
      sql`SELECT id, user_name AS "userName", full_name AS "fullName", email, role, email_verified_at AS "emailVerifiedAt",
                 avatar_key AS "avatarKey", cover_key AS "coverKey", subscriber_count AS "subscriberCount",
                 storage_bytes::float8 AS "storageBytes", created_at AS "createdAt"
          FROM users WHERE id = ${userId}`,
    );
    return row;
  }

  page(section: ExportSection, userId: string, after: string, limit: number): Promise<ExportRow[]> {
    return queryRows<ExportRow>(this.db, sql`${sections[section](userId, after)} ORDER BY k LIMIT ${limit}`);
  }
}
