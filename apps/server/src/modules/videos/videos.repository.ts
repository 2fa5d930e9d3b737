import { and, eq, sql, type SQL } from 'drizzle-orm';
import { DURATION_EDGES } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { publicMediaToken, videoVisibility } from './video-cards.repository.ts';

export type VideoTableRow = typeof videos.$inferSelect;

/** A video joined with its owner and the viewer's relation to both (one row per video). */
export interface VideoRow {
  id: string;
  title: string;
  description: string;
  duration: number;
  width: number | null;
  height: number | null;
  views: number;
  likes: number;
  dislikes: number;
  comments_count: number;
  is_published: boolean;
  status: 'processing' | 'ready' | 'failed';
  progress: number;
  failure_reason: string | null;
  source_key: string | null;
  thumbnail_key: string | null;
  hls_key: string | null;
  storyboard_key: string | null;
  /** The media token while the video is public, else null (`publicMediaToken`). */
  public_token: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  /** created_at as full-precision text: a cursor key must not lose microseconds. */
  created_key: string;
  owner_id: string;
  owner_user_name: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
  owner_subscribers: number;
  like_status: number;
  is_subscribed: boolean;
  /** Sort key of relevance searches. */
  rank?: number;
  watched_at?: Date | string;
  watched_key?: string;
  position_seconds?: number;
}

export type VideoSort = 'views' | 'uploadDate' | 'relevance';

export interface VideoListFilter {
  viewerId: string | null;
  query?: string;
  duration?: 'any' | 'short' | 'medium' | 'long';
  uploadDate?: 'anytime' | 'today' | 'thisWeek' | 'thisMonth' | 'thisYear';
  sort: VideoSort;
  /** Only this channel's videos. */
  ownerId?: string;
  limit: number;
  offset: number;
  cursor?: CursorValue[];
}

const uuidOrNull = (id: string | null) => sql`${id}::uuid`;

export function videoSelect(viewerId: string | null): SQL {
  const viewer = uuidOrNull(viewerId);
  return sql`SELECT v.id, v.title, v.description, v.duration, v.width, v.height, v.views::float8 AS views, v.likes, v.dislikes,
      v.comments_count, v.is_published, v.status, v.progress::float8 AS progress, v.failure_reason, v.source_key, v.thumbnail_key,
      v.hls_key, v.storyboard_key, ${publicTokenOfV} AS public_token, v.created_at, v.updated_at, v.created_at::text AS created_key,
      u.id AS owner_id, u.user_name AS owner_user_name, u.full_name AS owner_full_name, u.avatar_key AS owner_avatar_key,
      u.subscriber_count AS owner_subscribers,
      COALESCE((SELECT l.value FROM likes l WHERE l.video_id = v.id AND l.user_id = ${viewer}), 0)::int AS like_status,
      EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = v.owner_id AND s.subscriber_id = ${viewer}) AS is_subscribed`;
}

/** The visibility rule over the alias `v` of this file's raw SQL. */
const aliasV = {
  isPublished: sql.raw('v.is_published'),
  status: sql.raw('v.status'),
  ownerId: sql.raw('v.owner_id'),
  mediaToken: sql.raw('v.media_token'),
};
export const visibleTo = (viewerId: string | null): SQL => videoVisibility(aliasV, viewerId);
export const publicTokenOfV = publicMediaToken(aliasV);

const DATE_WINDOWS = { today: '1 day', thisWeek: '7 days', thisMonth: '1 month', thisYear: '1 year' } as const;

function durationFilter(d: VideoListFilter['duration']): SQL | undefined {
  if (d === 'short') return sql`v.duration < ${DURATION_EDGES.shortBelow}`;
  if (d === 'medium') return sql`v.duration BETWEEN ${DURATION_EDGES.shortBelow} AND ${DURATION_EDGES.longAbove}`;
  if (d === 'long') return sql`v.duration > ${DURATION_EDGES.longAbove}`;
  return undefined;
}

/**
 * A relevance search scores at most this many matching videos: with a very common word, ranking
 * every match (tens of thousands at 1M videos) would cost far more than the page needs.
 */
export const SEARCH_CANDIDATES = 1000;
/** Typo matches taken nearest-first (trigram GiST KNN, migration 0400): they rank below exact ones. */
export const TYPO_CANDIDATES = 100;

/** Full-text match (stemmed, weighted title A / description B) or a typo-tolerant title word match. */
function textMatch(q: string): { fts: SQL; typo: SQL; where: SQL; rank: SQL } {
  const tsq = sql`websearch_to_tsquery('english', ${q})`;
  const fts = sql`v.search @@ ${tsq}`;
  const typo = sql`lower(${q}) <% lower(v.title)`;
  return {
    fts,
    typo,
    where: sql`(${fts} OR ${typo})`,
    rank: sql`(ts_rank(v.search, ${tsq}) + 0.5 * word_similarity(lower(${q}), lower(v.title)))::float8`,
  };
}

type KeyType = 'float8' | 'bigint' | 'timestamptz' | 'uuid';

/** What a cursor value must be for each key type; anything else is a tampered cursor (400, not a SQL error). */
const KEY_CHECKS: Record<KeyType, (v: CursorValue) => boolean> = {
  float8: (v) => typeof v === 'number',
  bigint: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  timestamptz: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  uuid: (v) => typeof v === 'string' && isUuid(v),
};

/**
 * Sort keys and the types cursor values are cast to. The casts match the columns' own types:
 * comparing `(views, id)` with a float8 would turn the keyset's index condition into a filter
 * over every earlier row (page 1,000 then costs 20x page 1).
 */
function orderFor(sort: VideoSort, rank: SQL | undefined): { keys: SQL[]; casts: KeyType[] } {
  if (sort === 'relevance' && rank) return { keys: [rank, sql`v.id`], casts: ['float8', 'uuid'] };
  if (sort === 'uploadDate') return { keys: [sql`v.created_at`, sql`v.id`], casts: ['timestamptz', 'uuid'] };
  return { keys: [sql`v.views`, sql`v.id`], casts: ['bigint', 'uuid'] };
}

function checkCursor(cursor: CursorValue[], casts: KeyType[]): void {
  if (!cursor.every((c, i) => KEY_CHECKS[casts[i]!](c))) throw badRequest('Invalid cursor');
}

export class VideosRepository {
  constructor(private readonly db: Executor) {}

  async insert(row: typeof videos.$inferInsert): Promise<VideoTableRow> {
    const [created] = await this.db.insert(videos).values(row).returning();
    return created!;
  }

  async findRow(id: string): Promise<VideoTableRow | undefined> {
    const [row] = await this.db.select().from(videos).where(eq(videos.id, id)).limit(1);
    return row;
  }

  /** The video as `viewerId` may see it, or undefined when missing or hidden from them. */
  async findVisible(id: string, viewerId: string | null): Promise<VideoRow | undefined> {
    const [row] = await queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(viewerId)} FROM videos v JOIN users u ON u.id = v.owner_id WHERE v.id = ${id} AND ${visibleTo(viewerId)}`,
    );
    return row;
  }

  /** One page (limit + 1 rows) with each row's cursor key; keyset when a cursor is given, else offset. */
  async list(f: VideoListFilter): Promise<{ rows: VideoRow[]; cursorOf: (r: VideoRow) => CursorValue[] }> {
    const match = f.query ? textMatch(f.query) : undefined;
    const conditions: SQL[] = [visibleTo(f.viewerId)];
    if (f.ownerId) conditions.push(sql`v.owner_id = ${f.ownerId}`);
    const duration = durationFilter(f.duration);
    if (duration) conditions.push(duration);
    if (f.uploadDate && f.uploadDate !== 'anytime') {
      conditions.push(sql`v.created_at >= now() - ${DATE_WINDOWS[f.uploadDate]}::interval`);
    }
    if (match && f.sort === 'relevance') return this.search(f, match, conditions);
    if (match) conditions.push(match.where);
    const order = orderFor(f.sort, match?.rank);
    if (f.cursor) {
      checkCursor(f.cursor, order.casts);
      const values = f.cursor.map((c, i) => sql`${c}::${sql.raw(order.casts[i]!)}`);
      conditions.push(sql`(${sql.join(order.keys, sql`, `)}) < (${sql.join(values, sql`, `)})`);
    }
    const rows = await queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(f.viewerId)}, ${match?.rank ?? sql`0::float8`} AS rank
          FROM videos v JOIN users u ON u.id = v.owner_id
          WHERE ${sql.join(conditions, sql` AND `)}
          ORDER BY ${sql.join(order.keys.map((k) => sql`${k} DESC`), sql`, `)}
          LIMIT ${f.limit + 1} ${f.cursor ? sql`` : sql`OFFSET ${f.offset}`}`,
    );
    const cursorOf = (r: VideoRow): CursorValue[] => {
      if (f.sort === 'relevance' && match) return [r.rank ?? 0, r.id];
      if (f.sort === 'uploadDate') return [r.created_key, r.id];
      return [r.views, r.id];
    };
    return { rows, cursorOf };
  }

  /**
   * Relevance search over a capped candidate set: up to SEARCH_CANDIDATES full-text matches
   * (ranked in the same index scan that finds them), topped up with the TYPO_CANDIDATES titles
   * nearest by word similarity only when full-text finds fewer. Typo matches score below exact ones anyway. Only
   * the page's rows are then joined with their owners. Beyond the cap, the order of very common
   * words' matches is approximate.
   */
  private async search(
    f: VideoListFilter,
    m: ReturnType<typeof textMatch>,
    conditions: SQL[],
  ): Promise<{ rows: VideoRow[]; cursorOf: (r: VideoRow) => CursorValue[] }> {
    const filter = sql.join(conditions, sql` AND `);
    if (f.cursor) checkCursor(f.cursor, ['float8', 'uuid']);
    const after = f.cursor ? sql`WHERE (h.rank, h.id) < (${f.cursor[0]}::float8, ${f.cursor[1]}::uuid)` : sql``;
    const rows = await queryRows<VideoRow>(
      this.db,
      sql`WITH fts AS (
            SELECT v.id, ${m.rank} AS rank FROM videos v WHERE ${m.fts} AND ${filter} LIMIT ${SEARCH_CANDIDATES}
          ), typo AS (
            SELECT v.id, ${m.rank} AS rank FROM videos v WHERE ${m.typo} AND NOT ${m.fts} AND ${filter}
            ORDER BY lower(${f.query}) <<-> lower(v.title)
            LIMIT LEAST(${TYPO_CANDIDATES}, ${SEARCH_CANDIDATES} - (SELECT count(*) FROM fts))
          ), hits AS (
            SELECT * FROM fts UNION ALL SELECT * FROM typo
          ), page AS (
            SELECT h.id, h.rank FROM hits h ${after} ORDER BY h.rank DESC, h.id DESC
            LIMIT ${f.limit + 1} ${f.cursor ? sql`` : sql`OFFSET ${f.offset}`}
          )
          ${videoSelect(f.viewerId)}, page.rank
          FROM page JOIN videos v ON v.id = page.id JOIN users u ON u.id = v.owner_id
          ORDER BY page.rank DESC, v.id DESC`,
    );
    return { rows, cursorOf: (r) => [r.rank ?? 0, r.id] };
  }

  /**
   * Videos sharing words with this one's title and description (any word, ranked), the same
   * channel's a little ahead; popular videos fill the rest of the list.
   */
  async similar(video: VideoTableRow, viewerId: string | null, limit: number): Promise<VideoRow[]> {
    const words = sql`replace(plainto_tsquery('english', ${`${video.title} ${video.description}`})::text, '&', '|')`;
    const tsq = sql`(CASE WHEN ${words} = '' THEN NULL ELSE ${words}::tsquery END)`;
    return queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(viewerId)} FROM videos v JOIN users u ON u.id = v.owner_id
          WHERE v.is_published AND v.status = 'ready' AND v.id <> ${video.id}
          ORDER BY COALESCE(ts_rank(v.search, ${tsq}), 0) + CASE WHEN v.owner_id = ${video.ownerId} THEN 0.05 ELSE 0 END DESC,
                   v.views DESC, v.id DESC
          LIMIT ${limit}`,
    );
  }

  async update(id: string, set: Partial<typeof videos.$inferInsert>): Promise<VideoTableRow | undefined> {
    const [row] = await this.db
      .update(videos)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(videos.id, id))
      .returning();
    return row;
  }

  /**
   * Publishes or unpublishes. A change draws a new media token (the column default): URLs handed
   * out while the video was public stop working once it is hidden, and a new publication gets new ones.
   */
  async setPublished(id: string, isPublished: boolean, current: boolean): Promise<void> {
    await this.db
      .update(videos)
      .set({ isPublished, updatedAt: new Date(), ...(isPublished === current ? {} : { mediaToken: sql`DEFAULT` }) })
      .where(eq(videos.id, id));
  }

  /** Locks the row so concurrent edits of one video (two thumbnails at once) queue up. */
  async lock(id: string): Promise<VideoTableRow | undefined> {
    const [row] = await this.db.select().from(videos).where(eq(videos.id, id)).for('no key update');
    return row;
  }

  /** Processing-state changes that must not touch updatedAt (the uploader did not edit anything). */
  async setProcessing(id: string, set: Partial<typeof videos.$inferInsert>): Promise<boolean> {
    const rows = await this.db.update(videos).set(set).where(eq(videos.id, id)).returning({ id: videos.id });
    return rows.length > 0;
  }

  async delete(id: string, ownerId: string): Promise<boolean> {
    const rows = await this.db
      .delete(videos)
      .where(and(eq(videos.id, id), eq(videos.ownerId, ownerId)))
      .returning({ id: videos.id });
    return rows.length > 0;
  }

  /**
   * Counts a view once per viewer per hour: the (video, viewer) row is inserted, or refreshed
   * only when its last count is over an hour old; the counter moves only when a row was written.
   */
  async countView(videoId: string, viewerKey: string): Promise<{ counted: boolean; views: number }> {
    const written = await queryRows<{ video_id: string }>(
      this.db,
      sql`INSERT INTO video_views (video_id, viewer_key) VALUES (${videoId}, ${viewerKey})
          ON CONFLICT (video_id, viewer_key) DO UPDATE SET counted_at = now()
          WHERE video_views.counted_at < now() - interval '1 hour'
          RETURNING video_id`,
    );
    const counted = written.length > 0;
    const [row] = counted
      ? await queryRows<{ views: number }>(
          this.db,
          sql`UPDATE videos SET views = views + 1 WHERE id = ${videoId} RETURNING views::float8 AS views`,
        )
      : await queryRows<{ views: number }>(this.db, sql`SELECT views::float8 AS views FROM videos WHERE id = ${videoId}`);
    return { counted, views: row?.views ?? 0 };
  }

  /** View de-duplication rows older than the hour window no longer matter. */
  async pruneViews(): Promise<number> {
    const rows = await queryRows<{ video_id: string }>(
      this.db,
      sql`DELETE FROM video_views WHERE counted_at < now() - interval '1 hour' RETURNING video_id`,
    );
    return rows.length;
  }
}
