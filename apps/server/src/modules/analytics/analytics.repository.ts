import { sql, type SQL } from 'drizzle-orm';
import { trafficSources, type TrafficSource } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { visibleTo } from '../videos/videos.repository.ts';

/** A heartbeat as stored: the viewer already reduced to its salted key. */
export interface WatchEvent {
  videoId: string;
  viewerKey: Buffer;
  sessionId: string;
  source: TrafficSource;
  positions: number[];
}

/** A heartbeat as buffered for writing: with the time it arrived. */
export type StoredEvent = WatchEvent & { at: Date };

/** A PostgreSQL array literal of strings (one parameter however many rows). */
const arrayLiteral = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** One calendar day of a series (in the asked time zone). */
export interface DayRow {
  date: string;
  views: number;
  watch_seconds: number;
  subscribers_gained: number;
  subscribers_lost: number;
  likes: number;
  comments: number;
}

/** Which aggregates a dashboard reads: a channel's or one video's. */
export type Scope = { kind: 'channel'; id: string } | { kind: 'video'; id: string };

/** A range of calendar days in a time zone; `from` null = from the first activity. */
export interface DayRange {
  tz: string;
  from: string;
  to: string;
}

const arrayOfSources = (count: (source: string, position: number) => SQL) =>
  sql`ARRAY[${sql.join(trafficSources.map((s, i) => count(s, i + 1)), sql`, `)}]::int[]`;
const ZERO_SOURCES = sql.raw(`'{${trafficSources.map(() => 0).join(',')}}'::int[]`);

/** Bucket width of a video's retention, as bucketSeconds() (the service's) computes it. */
const bucketWidth = (duration: SQL) => sql`greatest(1, ${duration} / 100.0)::float8`;

const hourly = (s: Scope) =>
  s.kind === 'channel'
    ? { table: sql.raw('analytics_channel_hourly'), key: sql.raw('channel_id') }
    : { table: sql.raw('analytics_video_hourly'), key: sql.raw('video_id') };

export class AnalyticsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * What a heartbeat needs about a video: its owner, its length, and whether a visitor may open it
   * (the videos' one visibility rule, for no viewer). Null: no such video.
   */
  async heartbeatFacts(videoId: string): Promise<{ ownerId: string; duration: number; shown: boolean } | null> {
    const [row] = await queryRows<{ owner_id: string; duration: number; shown: boolean }>(
      this.db,
      sql`SELECT v.owner_id, v.duration, ${visibleTo(null)} AS shown FROM videos v WHERE v.id = ${videoId}`,
    );
    return row ? { ownerId: row.owner_id, duration: row.duration, shown: row.shown } : null;
  }

  /** Stores heartbeats (positions already checked) in one statement: one array parameter per column. */
  async insertEvents(events: StoredEvent[]): Promise<void> {
    const col = (f: (e: StoredEvent) => string) => arrayLiteral(events.map(f));
    await this.db.execute(
      sql`INSERT INTO watch_events (video_id, viewer_key, session_id, source, positions, at)
          SELECT video_id, decode(viewer_key, 'hex'), session_id, source, positions::int[], at
          FROM unnest(${col((e) => e.videoId)}::uuid[], ${col((e) => e.viewerKey.toString('hex'))}::text[], ${col((e) => e.sessionId)}::uuid[],
                      ${col((e) => e.source)}::text[], ${col((e) => `{${e.positions.join(',')}}`)}::text[], ${col((e) => e.at.toISOString())}::timestamptz[])
            AS t (video_id, viewer_key, session_id, source, positions, at)`,
    );
  }

  /** Locks the rollup's watermark row until the transaction ends; null when nothing was rolled yet. */
  async lockWatermark(): Promise<Date | null> {
    const [row] = await queryRows<{ rolled_until: Date | string | null }>(
      this.db,
      sql`SELECT rolled_until FROM analytics_rollup_state FOR UPDATE`,
    );
    return row?.rolled_until == null ? null : new Date(row.rolled_until);
  }

  async setWatermark(until: Date): Promise<void> {
    await this.db.execute(sql`UPDATE analytics_rollup_state SET rolled_until = ${until.toISOString()}::timestamptz`);
  }

  /**
   * Rolls the raw rows of [from, to) (whole hours) into every aggregate, in one statement. A view
   * is one viewer's heartbeats on one video within one clock hour, attributed to the source of its
   * earliest heartbeat; its watch time is the number of distinct seconds it played.
   */
  async rollup(from: Date | null, to: Date, provisional = false): Promise<void> {
    const since = from ? sql`${from.toISOString()}::timestamptz` : sql`'-infinity'::timestamptz`;
    const until = sql`${to.toISOString()}::timestamptz`;
    await this.db.execute(sql`
      WITH ev AS MATERIALIZED (
        SELECT e.video_id, v.owner_id AS channel_id, v.duration, e.viewer_key, date_trunc('hour', e.at) AS hour, e.at, e.source, e.positions
        FROM watch_events e JOIN videos v ON v.id = e.video_id
        WHERE e.at >= ${since} AND e.at < ${until}
      ), seconds AS MATERIALIZED (
        SELECT DISTINCT ev.video_id, ev.viewer_key, ev.hour, p.pos FROM ev, unnest(ev.positions) AS p (pos)
      ), views AS MATERIALIZED (
        SELECT ev.video_id, ev.channel_id, ev.duration, ev.viewer_key, ev.hour, (array_agg(ev.source ORDER BY ev.at))[1] AS source,
               (SELECT count(*) FROM seconds s WHERE s.video_id = ev.video_id AND s.viewer_key = ev.viewer_key AND s.hour = ev.hour) AS seconds
        FROM ev GROUP BY ev.video_id, ev.channel_id, ev.duration, ev.viewer_key, ev.hour
      ), likes_hour AS (
        SELECT l.video_id, date_trunc('hour', l.created_at) AS hour, count(*) AS n FROM likes l
        WHERE l.video_id IS NOT NULL AND l.value = 1 AND l.created_at >= ${since} AND l.created_at < ${until} GROUP BY 1, 2
      ), comments_hour AS (
        SELECT c.video_id, date_trunc('hour', c.created_at) AS hour, count(*) AS n FROM comments c
        WHERE c.video_id IS NOT NULL AND c.created_at >= ${since} AND c.created_at < ${until} GROUP BY 1, 2
      ), views_hour AS (
        SELECT video_id, hour, count(*) AS views, sum(seconds) AS watch_seconds,
               ${arrayOfSources((s) => sql`count(*) FILTER (WHERE source = ${s})`)} AS source_views
        FROM views GROUP BY 1, 2
      ), video_rows AS MATERIALIZED (
        SELECT k.video_id, v.owner_id AS channel_id, k.hour, coalesce(vh.views, 0)::int AS views,
               coalesce(vh.watch_seconds, 0)::bigint AS watch_seconds, coalesce(vh.source_views, ${ZERO_SOURCES}) AS source_views,
               coalesce(lh.n, 0)::int AS likes, coalesce(ch.n, 0)::int AS comments
        FROM (SELECT video_id, hour FROM views_hour UNION SELECT video_id, hour FROM likes_hour UNION SELECT video_id, hour FROM comments_hour) k
        JOIN videos v ON v.id = k.video_id
        LEFT JOIN views_hour vh ON vh.video_id = k.video_id AND vh.hour = k.hour
        LEFT JOIN likes_hour lh ON lh.video_id = k.video_id AND lh.hour = k.hour
        LEFT JOIN comments_hour ch ON ch.video_id = k.video_id AND ch.hour = k.hour
      ), subs_hour AS (
        SELECT channel_id, date_trunc('hour', at) AS hour, count(*) FILTER (WHERE delta = 1) AS gained, count(*) FILTER (WHERE delta = -1) AS lost
        FROM subscription_events WHERE at >= ${since} AND at < ${until} GROUP BY 1, 2
      ), channel_sources AS (
        SELECT channel_id, hour, ${arrayOfSources((s) => sql`count(*) FILTER (WHERE source = ${s})`)} AS source_views FROM views GROUP BY 1, 2
      ), channel_rows AS (
        SELECT x.channel_id, x.hour, sum(views)::int AS views, sum(watch_seconds)::bigint AS watch_seconds, sum(likes)::int AS likes,
               sum(comments)::int AS comments, sum(gained)::int AS gained, sum(lost)::int AS lost
        FROM (
          SELECT channel_id, hour, views, watch_seconds, likes, comments, 0 AS gained, 0 AS lost FROM video_rows
          UNION ALL SELECT channel_id, hour, 0, 0, 0, 0, gained, lost FROM subs_hour
        ) x GROUP BY 1, 2
      ), widths AS (
        SELECT DISTINCT video_id, ${bucketWidth(sql.raw('duration'))} AS width, greatest(1, ceil(duration / ${bucketWidth(sql.raw('duration'))}))::int AS n FROM views
      ), view_buckets AS (
        SELECT DISTINCT s.video_id, (s.hour AT TIME ZONE 'UTC')::date AS day, s.viewer_key, s.hour, least(floor(s.pos / w.width)::int, w.n - 1) AS b
        FROM seconds s JOIN widths w ON w.video_id = s.video_id
      ), bucket_counts AS (
        SELECT video_id, day, b, count(*)::int AS views FROM view_buckets GROUP BY 1, 2, 3
      ), day_views AS (
        SELECT video_id, channel_id, (hour AT TIME ZONE 'UTC')::date AS day, sum(views)::int AS views, sum(watch_seconds)::bigint AS watch_seconds
        FROM video_rows WHERE views > 0 GROUP BY 1, 2, 3
      ), retention_rows AS (
        SELECT d.video_id, d.day, w.width, d.views,
               (SELECT array_agg(coalesce(c.views, 0) ORDER BY g) FROM generate_series(0, w.n - 1) g
                LEFT JOIN bucket_counts c ON c.video_id = d.video_id AND c.day = d.day AND c.b = g) AS bucket_views
        FROM day_views d JOIN widths w ON w.video_id = d.video_id
      ), video_written AS (
        INSERT INTO analytics_video_hourly (video_id, hour, views, watch_seconds, source_views, likes, comments, provisional)
        SELECT video_id, hour, views, watch_seconds, source_views, likes, comments, ${provisional} FROM video_rows
        ON CONFLICT (video_id, hour, provisional) DO UPDATE SET
          views = analytics_video_hourly.views + EXCLUDED.views,
          watch_seconds = analytics_video_hourly.watch_seconds + EXCLUDED.watch_seconds,
          source_views = analytics_array_add(analytics_video_hourly.source_views, EXCLUDED.source_views),
          likes = analytics_video_hourly.likes + EXCLUDED.likes,
          comments = analytics_video_hourly.comments + EXCLUDED.comments
      ), channel_written AS (
        INSERT INTO analytics_channel_hourly (channel_id, hour, views, watch_seconds, source_views, likes, comments, subscribers_gained, subscribers_lost, provisional)
        SELECT r.channel_id, r.hour, r.views, r.watch_seconds, coalesce(cs.source_views, ${ZERO_SOURCES}), r.likes, r.comments, r.gained, r.lost, ${provisional}
        FROM channel_rows r LEFT JOIN channel_sources cs ON cs.channel_id = r.channel_id AND cs.hour = r.hour
        ON CONFLICT (channel_id, hour, provisional) DO UPDATE SET
          views = analytics_channel_hourly.views + EXCLUDED.views,
          watch_seconds = analytics_channel_hourly.watch_seconds + EXCLUDED.watch_seconds,
          source_views = analytics_array_add(analytics_channel_hourly.source_views, EXCLUDED.source_views),
          likes = analytics_channel_hourly.likes + EXCLUDED.likes,
          comments = analytics_channel_hourly.comments + EXCLUDED.comments,
          subscribers_gained = analytics_channel_hourly.subscribers_gained + EXCLUDED.subscribers_gained,
          subscribers_lost = analytics_channel_hourly.subscribers_lost + EXCLUDED.subscribers_lost
      ), monthly_written AS (
        INSERT INTO analytics_video_monthly (video_id, channel_id, month, views, watch_seconds, provisional)
        SELECT video_id, channel_id, date_trunc('month', day)::date, sum(views), sum(watch_seconds), ${provisional} FROM day_views GROUP BY 1, 2, 3
        ON CONFLICT (video_id, month, provisional) DO UPDATE SET
          views = analytics_video_monthly.views + EXCLUDED.views,
          watch_seconds = analytics_video_monthly.watch_seconds + EXCLUDED.watch_seconds
      ), daily_written AS (
        INSERT INTO analytics_video_daily (video_id, channel_id, day, views, watch_seconds, provisional)
        SELECT video_id, channel_id, day, views, watch_seconds, ${provisional} FROM day_views
        ON CONFLICT (video_id, day, provisional) DO UPDATE SET
          views = analytics_video_daily.views + EXCLUDED.views,
          watch_seconds = analytics_video_daily.watch_seconds + EXCLUDED.watch_seconds
      )
      INSERT INTO analytics_retention_daily (video_id, day, bucket_seconds, views, bucket_views, provisional)
      SELECT video_id, day, width, views, bucket_views, ${provisional} FROM retention_rows
      ON CONFLICT (video_id, day, provisional) DO UPDATE SET
        views = analytics_retention_daily.views + EXCLUDED.views,
        bucket_views = analytics_array_add(analytics_retention_daily.bucket_views, EXCLUDED.bucket_views)`);
  }

  /** Drops the rows of the hour in progress (the caller writes them anew). */
  async clearProvisional(): Promise<void> {
    for (const table of ['analytics_video_hourly', 'analytics_channel_hourly', 'analytics_video_daily', 'analytics_video_monthly', 'analytics_retention_daily']) {
      await this.db.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE provisional`);
    }
  }

  /** Deletes raw rows older than `before` (the caller passes a time already rolled up). */
  async prune(before: Date): Promise<number> {
    const t = sql`${before.toISOString()}::timestamptz`;
    const watch = await queryRows<{ n: number }>(
      this.db,
      sql`WITH d AS (DELETE FROM watch_events WHERE at < ${t} RETURNING 1) SELECT count(*)::int AS n FROM d`,
    );
    const subs = await queryRows<{ n: number }>(
      this.db,
      sql`WITH d AS (DELETE FROM subscription_events WHERE at < ${t} RETURNING 1) SELECT count(*)::int AS n FROM d`,
    );
    return watch[0]!.n + subs[0]!.n;
  }

  /** Today's date in `tz`; throws PostgreSQL's error (22023) for a zone it does not know. */
  async today(tz: string): Promise<string> {
    const [row] = await queryRows<{ today: string }>(this.db, sql`SELECT to_char(now() AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS today`);
    return row!.today;
  }

  /** The day (in `tz`) of the scope's first aggregated hour, or null without any. */
  async firstDay(s: Scope, tz: string): Promise<string | null> {
    const { table, key } = hourly(s);
    const [row] = await queryRows<{ day: string | null }>(
      this.db,
      sql`SELECT to_char(min(hour) AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS day FROM ${table} WHERE ${key} = ${s.id}`,
    );
    return row?.day ?? null;
  }

  /** Every day of the range, days without activity included (zeros). Videos have no subscriber figures. */
  async days(s: Scope, r: DayRange): Promise<DayRow[]> {
    const { table, key } = hourly(s);
    const subs = s.kind === 'channel' ? sql`sum(subscribers_gained) AS gained, sum(subscribers_lost) AS lost` : sql`0 AS gained, 0 AS lost`;
    return queryRows<DayRow>(
      this.db,
      sql`SELECT to_char(d, 'YYYY-MM-DD') AS date, coalesce(a.views, 0)::int AS views, coalesce(a.watch_seconds, 0)::float8 AS watch_seconds,
                 coalesce(a.gained, 0)::int AS subscribers_gained, coalesce(a.lost, 0)::int AS subscribers_lost,
                 coalesce(a.likes, 0)::int AS likes, coalesce(a.comments, 0)::int AS comments
          FROM generate_series(${r.from}::date, ${r.to}::date, interval '1 day') d
          LEFT JOIN (
            SELECT (hour AT TIME ZONE ${r.tz})::date AS day, sum(views) AS views, sum(watch_seconds) AS watch_seconds,
                   ${subs}, sum(likes) AS likes, sum(comments) AS comments
            FROM ${table} WHERE ${key} = ${s.id} AND ${inRange(r)}
            GROUP BY 1
          ) a ON a.day = d::date
          ORDER BY d`,
    );
  }

  /** Views per traffic source over the range, in the contract's order. */
  async sources(s: Scope, r: DayRange): Promise<number[]> {
    const { table, key } = hourly(s);
    const [row] = await queryRows<{ views: number[] }>(
      this.db,
      sql`SELECT ${arrayOfSources((_s, i) => sql`coalesce(sum(source_views[${sql.raw(String(i))}]), 0)`)} AS views
          FROM ${table} WHERE ${key} = ${s.id} AND ${inRange(r)}`,
    );
    return row?.views ?? trafficSources.map(() => 0);
  }

  /**
   * The channel's most viewed videos over the range (UTC days), with their titles: the range's
   * whole calendar months from the monthly table, the days before the first and after the last of
   * them from the daily table (a range without a whole month: all its days); lifetime: every month.
   */
  topVideos(channelId: string, r: DayRange | null, limit: number) {
    const monthly = (where: SQL) =>
      sql`SELECT m.video_id, m.views, m.watch_seconds FROM analytics_video_monthly m WHERE m.channel_id = ${channelId} ${where}`;
    const daily = (from: string, to: string) =>
      sql`SELECT d.video_id, d.views, d.watch_seconds FROM analytics_video_daily d WHERE d.channel_id = ${channelId} AND d.day BETWEEN ${from}::date AND ${to}::date`;
    const parts: SQL[] = [];
    if (!r) parts.push(monthly(sql``));
    else {
      const m = wholeMonths(r.from, r.to);
      if (!m) parts.push(daily(r.from, r.to));
      else {
        parts.push(monthly(sql`AND m.month >= ${m.first}::date AND m.month < ${m.end}::date`));
        if (r.from < m.first) parts.push(daily(r.from, shiftDay(m.first, -1)));
        if (m.end <= r.to) parts.push(daily(m.end, r.to));
      }
    }
    return queryRows<{ video_id: string; title: string; views: number; watch_seconds: number }>(
      this.db,
      sql`SELECT t.video_id, v.title, t.views::int AS views, t.watch_seconds::float8 AS watch_seconds
          FROM (
            SELECT x.video_id, sum(x.views) AS views, sum(x.watch_seconds) AS watch_seconds FROM (${sql.join(parts, sql` UNION ALL `)}) x
            GROUP BY x.video_id ORDER BY 2 DESC, 3 DESC, 1 LIMIT ${limit}
          ) t JOIN videos v ON v.id = t.video_id
          ORDER BY t.views DESC, t.watch_seconds DESC, t.video_id`,
    );
  }

  /** The video's retention rows over the range (UTC days). */
  retention(videoId: string, r: DayRange | null) {
    const days = r ? sql`AND day BETWEEN ${r.from}::date AND ${r.to}::date` : sql``;
    return queryRows<{ bucket_seconds: number; views: number; bucket_views: number[] }>(
      this.db,
      sql`SELECT bucket_seconds, views, bucket_views FROM analytics_retention_daily WHERE video_id = ${videoId} ${days}`,
    );
  }
}

const shiftDay = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The whole calendar months inside the days [from, to] (YYYY-MM-DD): the first day of the first
 * one, and the first day after the last one; null without any.
 */
export function wholeMonths(from: string, to: string): { first: string; end: string } | null {
  const startOf = (day: string) => `${day.slice(0, 7)}-01`;
  const first = from.endsWith('-01') ? from : startOf(shiftDay(startOf(from), 31));
  const end = startOf(shiftDay(to, 1));
  return first < end ? { first, end } : null;
}

/** Hours whose start lies within the range's calendar days in its time zone. */
function inRange(r: DayRange): SQL {
  return sql`hour >= (${r.from}::date::timestamp AT TIME ZONE ${r.tz}) AND hour < ((${r.to}::date + 1)::timestamp AT TIME ZONE ${r.tz})`;
}
