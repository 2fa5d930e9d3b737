import { and, eq, sql, type SQL } from 'drizzle-orm';
import { DURATION_EDGES, type VideoPrivacy } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import { badRequest } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { publicMediaToken, videoListedTo, videoListedVisibility, videoRemovedByModerators, videoVisibility } from '../../policy/visibility.ts';

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
  comments_enabled: boolean;
  privacy: VideoPrivacy;
  publish_at: Date | string | null;
  downloads_enabled: boolean;
  status: 'processing' | 'ready' | 'failed';
  progress: number;
  failure_reason: string | null;
  source_key: string | null;
  thumbnail_key: string | null;
  hls_key: string | null;
  storyboard_key: string | null;
  renditions: string[];
  renditions_ready: string[];
  /** The media token while the video is public, else null (`publicMediaToken`). */
  public_token: string | null;
  taken_down_at: Date | string | null;
  takedown_reason: string | null;
  appeal_text: string | null;
  appealed_at: Date | string | null;
  appeal_closed_at: Date | string | null;
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
  /** The video's caption tracks (migration 0810), by language. */
  captions: { lang: string; label: string; storageKey: string }[] | null;
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
  /** The query with misspelled words corrected (SearchRepository.corrected), when any was. */
  corrected?: string;
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
      v.comments_count, v.comments_enabled, v.privacy, v.publish_at, v.downloads_enabled, v.status, v.progress::float8 AS progress, v.failure_reason, v.source_key, v.thumbnail_key,
      v.hls_key, v.storyboard_key, v.renditions, v.renditions_ready, ${publicTokenOfV} AS public_token, v.taken_down_at, v.takedown_reason, v.appeal_text, v.appealed_at,
      v.appeal_closed_at, v.created_at, v.updated_at, v.created_at::text AS created_key,
      u.id AS owner_id, u.user_name AS owner_user_name, u.full_name AS owner_full_name, u.avatar_key AS owner_avatar_key,
      u.subscriber_count AS owner_subscribers,
      COALESCE((SELECT l.value FROM likes l WHERE l.video_id = v.id AND l.user_id = ${viewer}), 0)::int AS like_status,
      EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = v.owner_id AND s.subscriber_id = ${viewer}) AS is_subscribed,
      (SELECT json_agg(json_build_object('lang', c.lang, 'label', c.label, 'storageKey', c.storage_key) ORDER BY c.lang)
         FROM video_captions c WHERE c.video_id = v.id) AS captions`;
}

/** The visibility rule over the alias `v` of this file's raw SQL. */
const aliasV = {
  privacy: sql.raw('v.privacy'),
  status: sql.raw('v.status'),
  ownerId: sql.raw('v.owner_id'),
  takenDownAt: sql.raw('v.taken_down_at'),
  mediaToken: sql.raw('v.media_token'),
};
export const visibleTo = (viewerId: string | null, staff = false): SQL => videoVisibility(aliasV, viewerId, staff);
export const listedTo = (viewerId: string | null): SQL => videoListedVisibility(aliasV, viewerId);
export const publicTokenOfV = publicMediaToken(aliasV);

const DATE_WINDOWS = { today: '1 day', thisWeek: '7 days', thisMonth: '1 month', thisYear: '1 year' } as const;

function durationFilter(d: VideoListFilter['duration']): SQL | undefined {
  if (d === 'short') return sql`v.duration < ${DURATION_EDGES.shortBelow}`;
  if (d === 'medium') return sql`v.duration BETWEEN ${DURATION_EDGES.shortBelow} AND ${DURATION_EDGES.longAbove}`;
  if (d === 'long') return sql`v.duration > ${DURATION_EDGES.longAbove}`;
  return undefined;
}

/**
 * A relevance search ranks at most this many matching videos (20 pages of 10), the most viewed
 * first: with a very common word (in half the catalogue), ranking every match would cost far more
 * than the page needs, and finding them by the views index costs this many over the word's share.
 */
export const SEARCH_CANDIDATES = 200;

/**
 * Caption-only matches rank below every title and description match: a full-text rank
 * (ts_rank of weight D, at most 1) scaled under the smallest of those.
 */
const CAPTION_RANK_SCALE = 0.0001;

/**
 * The relevance of a candidate (ADR 016), highest first:
 * 1 when the title holds every term, 0.5 more when the text holds the query as a phrase, plus the
 * weighted full-text rank (title A above description B; scaled into 0..1), kept to 4 decimals.
 * Below that last decimal, popularity (log of views) and then recency break ties: both are folded
 * into the one float, so a cursor stays (rank, id).
 */
function relevance(tsq: SQL, phrase: SQL, titleDoc: SQL = sql`v.title_search`, textDoc: SQL = sql`v.search`): SQL {
  const text = sql`(CASE WHEN ${titleDoc} @@ ${tsq} THEN 1 ELSE 0 END + CASE WHEN ${textDoc} @@ ${phrase} THEN 0.5 ELSE 0 END + ts_rank(${textDoc}, ${tsq}, 32))`;
  const popularity = sql`floor(1e4 * least(ln(1 + greatest(v.views, 0)) / 30, 0.9999)) / 1e4`;
  const recency = sql`floor(1e5 * least(greatest(extract(epoch FROM v.created_at), 0) / 1e10, 0.99999)) / 1e5`;
  return sql`(floor(1e4 * ${text}) / 1e4 + 1e-5 * (${popularity} + 1e-4 * ${recency}))::float8`;
}

/** How a query finds videos: the conditions of a search's candidate parts (ADR 016), its filter and its rank. */
interface TextMatch {
  /** The title holds the query (the first part). */
  inTitle: SQL;
  /** The description holds it and the title does not (the second part). */
  inDescriptionOnly: SQL;
  /** A caption holds it and the text does not (the third part), over `video_captions c`. */
  inCaptionsOnly: SQL;
  captionRank: SQL;
  /** Any of them: the filter of a search in another order. */
  where: SQL;
  rank: SQL;
}

/**
 * Full-text match (stemmed, weighted title A / description B) or a match in the video's captions
 * (their own GIN index, migration 0810). `corrected`: the query with misspelled words replaced by
 * catalogue words (SearchRepository.corrected); a video matches either spelling.
 */
function textMatch(q: string, corrected?: string): TextMatch {
  const original = q.split(' ').length > PASSAGE_WORDS ? anyWordOf(q) : sql`websearch_to_tsquery('english', ${q})`;
  const tsq = corrected ? sql`(websearch_to_tsquery('english', ${corrected}) || ${original})` : original;
  const fts = sql`v.search @@ ${tsq}`;
  const captions = sql`c.search @@ ${tsq}`;
  return {
    inTitle: sql`v.title_search @@ ${tsq}`,
    inDescriptionOnly: sql`${fts} AND NOT v.title_search @@ ${tsq}`,
    inCaptionsOnly: sql`${captions} AND NOT ${fts}`,
    captionRank: sql`(${CAPTION_RANK_SCALE} * max(ts_rank(c.search, ${tsq})))::float8`,
    where: sql`(${fts} OR EXISTS (SELECT 1 FROM video_captions c WHERE c.video_id = v.id AND ${captions}))`,
    rank: relevance(tsq, sql`phraseto_tsquery('english', ${corrected ?? q})`),
  };
}

/**
 * A query longer than this many words is a passage, not a search-box phrase: a spec client asks
 * for related videos with the video's title and description as the query. A video matches any of
 * its words, and the rank puts those matching more (and in the title) first.
 */
export const PASSAGE_WORDS = 8;

/** Any word of `text` (stemmed, stop words dropped) as a tsquery; NULL, which matches nothing, when none is left. */
function anyWordOf(text: string): SQL {
  const words = sql`replace(plainto_tsquery('english', ${text})::text, '&', '|')`;
  return sql`(CASE WHEN ${words} = '' THEN NULL ELSE ${words}::tsquery END)`;
}

/**
 * A query of stop words only ("the", "to be or not to be") is empty in English full text, which
 * drops them: it matches titles holding its words as typed instead ('simple': lower-cased, nothing
 * dropped, no stems; "the" is not "theatre"), through migration 1035's index of that expression.
 * Titles only; no other query takes this path (ADR 016).
 */
function titleWordsMatch(q: string): TextMatch {
  const tsq = sql`websearch_to_tsquery('simple', ${q})`;
  const title = sql`to_tsvector('simple', v.title)`;
  const inTitle = sql`${title} @@ ${tsq}`;
  return {
    inTitle,
    inDescriptionOnly: sql`false`,
    inCaptionsOnly: sql`false`,
    captionRank: sql`0::float8`,
    where: inTitle,
    rank: relevance(tsq, sql`phraseto_tsquery('simple', ${q})`, title, title),
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

  /** The video as `viewerId` may see it (`staff`: private ones too), or undefined when missing or hidden from them. */
  async findVisible(id: string, viewerId: string | null, staff = false): Promise<VideoRow | undefined> {
    const [row] = await queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(viewerId)} FROM videos v JOIN users u ON u.id = v.owner_id WHERE v.id = ${id} AND ${visibleTo(viewerId, staff)}`,
    );
    return row;
  }

  /** Whether the moderators took down a video visitors could otherwise open (policy: videoRemovedByModerators). */
  async isRemovedByModerators(id: string): Promise<boolean> {
    const [row] = await this.db.select({ id: videos.id }).from(videos).where(and(eq(videos.id, id), videoRemovedByModerators(videos)));
    return row !== undefined;
  }

  /** One page (limit + 1 rows) with each row's cursor key; keyset when a cursor is given, else offset. */
  async list(f: VideoListFilter): Promise<{ rows: VideoRow[]; cursorOf: (r: VideoRow) => CursorValue[] }> {
    const match = f.query ? ((await this.onlyStopWords(f.query)) ? titleWordsMatch(f.query) : textMatch(f.query, f.corrected)) : undefined;
    const conditions: SQL[] = [listedTo(f.viewerId)];
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
   * Relevance search over a capped candidate set (ADR 016): the SEARCH_CANDIDATES most viewed
   * videos whose title matches; while the cap leaves room, the most viewed whose description
   * matches; then caption-only matches. Each part finds its rows through its GIN index or, for a
   * word in a large share of the catalogue, in views order (title matches: an index-only scan of
   * migration 1000's covering index); the planner picks from the word's statistics. Only the
   * candidates are ranked (so the candidate scans read no other column) and only the page's rows
   * are joined with their owners.
   * Beyond the cap, less viewed matches of very common words are left out.
   */
  private async search(
    f: VideoListFilter,
    m: TextMatch,
    conditions: SQL[],
  ): Promise<{ rows: VideoRow[]; cursorOf: (r: VideoRow) => CursorValue[] }> {
    const filter = sql.join(conditions, sql` AND `);
    if (f.cursor) checkCursor(f.cursor, ['float8', 'uuid']);
    const after = f.cursor ? sql`WHERE (h.rank, h.id) < (${f.cursor[0]}::float8, ${f.cursor[1]}::uuid)` : sql``;
    const rows = await queryRows<VideoRow>(
      this.db,
      sql`WITH titles AS (
            SELECT v.id FROM videos v WHERE ${m.inTitle} AND ${filter} ORDER BY v.views DESC LIMIT ${SEARCH_CANDIDATES}
          ), descriptions AS (
            SELECT v.id FROM videos v WHERE ${m.inDescriptionOnly} AND ${filter} ORDER BY v.views DESC
            LIMIT ${SEARCH_CANDIDATES} - (SELECT count(*) FROM titles)
          ), caps AS (
            SELECT v.id, ${m.captionRank} AS rank FROM video_captions c JOIN videos v ON v.id = c.video_id
            WHERE ${m.inCaptionsOnly} AND ${filter}
            GROUP BY v.id
            LIMIT GREATEST(0, ${SEARCH_CANDIDATES} - (SELECT count(*) FROM titles) - (SELECT count(*) FROM descriptions))
          ), hits AS (
            SELECT v.id, ${m.rank} AS rank FROM videos v WHERE v.id IN (SELECT id FROM titles UNION ALL SELECT id FROM descriptions)
            UNION ALL SELECT * FROM caps
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

  /** Whether English full text drops every word of the query (its stop words) while it has words. */
  private async onlyStopWords(q: string): Promise<boolean> {
    const [row] = await queryRows<{ only: boolean }>(
      this.db,
      sql`SELECT numnode(websearch_to_tsquery('english', ${q})) = 0 AND numnode(websearch_to_tsquery('simple', ${q})) > 0 AS only`,
    );
    return row!.only;
  }

  /**
   * Videos sharing words with this one's title and description (any word, ranked), the same
   * channel's a little ahead; popular videos fill the rest of the list.
   */
  async similar(video: VideoTableRow, viewerId: string | null, limit: number): Promise<VideoRow[]> {
    const tsq = anyWordOf(`${video.title} ${video.description}`);
    return queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(viewerId)} FROM videos v JOIN users u ON u.id = v.owner_id
          WHERE ${listedTo(null)} AND v.id <> ${video.id}
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
   * Sets the privacy and the schedule (with other edits in `set`). Entering or leaving `public`
   * draws a new media token (the column default): URLs handed out while the video was public stop
   * working once it is not, and a new publication gets new ones.
   */
  async setPrivacy(
    id: string,
    change: { privacy: VideoPrivacy; publishAt: Date | null },
    current: VideoPrivacy,
    set: Partial<typeof videos.$inferInsert> = {},
  ): Promise<void> {
    const newToken = (change.privacy === 'public') !== (current === 'public');
    await this.db
      .update(videos)
      .set({ ...set, ...change, updatedAt: new Date(), ...(newToken ? { mediaToken: sql`DEFAULT` } : {}) })
      .where(eq(videos.id, id));
  }

  /**
   * The scheduled publication, exactly once: only while the row still waits for this very time (a
   * changed or cancelled schedule leaves the stale job nothing to do). The owner's id when it published.
   */
  async publishScheduled(id: string, publishAt: Date): Promise<string | undefined> {
    const [row] = await this.db
      .update(videos)
      .set({ privacy: 'public', publishAt: null, mediaToken: sql`DEFAULT`, updatedAt: new Date() })
      .where(and(eq(videos.id, id), eq(videos.publishAt, publishAt), eq(videos.privacy, 'private')))
      .returning({ ownerId: videos.ownerId });
    return row?.ownerId;
  }

  /**
   * Marks the video announced the first time it is listed (public, ready, visible: the one rule):
   * true then, and the caller tells its subscribers in the same transaction. Never twice.
   */
  async announce(id: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      sql`UPDATE videos SET announced_at = now() WHERE id = ${id} AND announced_at IS NULL AND ${videoListedTo(null)} RETURNING id`,
    );
    return rows.length > 0;
  }

  /** Whether anyone may find the video in lists now (a fan-out checks again before telling subscribers). */
  async isListed(id: string): Promise<boolean> {
    const rows = await this.db.select({ id: videos.id }).from(videos).where(and(eq(videos.id, id), videoListedTo(null)));
    return rows.length > 0;
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

  /** Stops counting `bytes` of the video's media (files removed); its owner, or undefined when the video is gone. */
  async releaseMediaBytes(id: string, bytes: number): Promise<string | undefined> {
    const [row] = await queryRows<{ owner_id: string }>(
      this.db,
      sql`UPDATE videos SET media_bytes = greatest(0, media_bytes - ${bytes}) WHERE id = ${id} RETURNING owner_id`,
    );
    return row?.owner_id;
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
  /**
   * The viewer's watch history (the history module lists it): one row per user and video, moved
   * to the top on every watch, keeping the last position. Written here, with the view it counts.
   */
  async recordWatch(userId: string, videoId: string, position: number | undefined): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO watch_history (user_id, video_id, watched_at, position_seconds)
          VALUES (${userId}, ${videoId}, clock_timestamp(), ${position ?? 0})
          ON CONFLICT (user_id, video_id) DO UPDATE SET watched_at = EXCLUDED.watched_at,
            position_seconds = COALESCE(${position ?? null}::real, watch_history.position_seconds)`,
    );
  }

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
