import { createHmac } from 'node:crypto';
import {
  analyticsMessages,
  trafficSources,
  videoMessages,
  type AnalyticsDay,
  type AnalyticsQuery,
  type AnalyticsRange,
  type AnalyticsTotals,
  type ChannelAnalytics,
  type HeartbeatBody,
  type VideoAnalytics,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { hasPgCode } from '../../db/errors.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { AnalyticsRepository, type DayRange, type DayRow, type Scope } from './analytics.repository.ts';
import type { HeartbeatWriter } from './heartbeat-writer.ts';

const RANGE_DAYS: Record<Exclude<AnalyticsRange, 'lifetime'>, number> = { '7d': 7, '28d': 28, '90d': 90, '365d': 365 };
const TOP_VIDEOS = 10;
/** Viewers whose heartbeat keys are kept for the day (about the viewers of 2,000 heartbeats/s). */
const KEYS_KEPT = 10_000;
export const UNKNOWN_TIME_ZONE = 'Unknown time zone';

/** Retention bucket width: 1 s up to 100 s, else a hundredth of the video (the rollup's SQL uses the same rule). */
export const bucketSeconds = (duration: number) => Math.max(1, duration / 100);

/** Who is watching, for counting: the account, or a visitor's IP and user agent. */
export type Watcher = { userId: string } | { ip: string; userAgent: string };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));

function totalsOf(days: AnalyticsDay[]): AnalyticsTotals {
  const sum = (k: keyof Omit<AnalyticsDay, 'date'>) => days.reduce((a, d) => a + d[k], 0);
  const views = sum('views');
  const watchTimeSeconds = sum('watchTimeSeconds');
  return {
    views,
    watchTimeSeconds,
    averageViewDurationSeconds: views ? Math.round(watchTimeSeconds / views) : 0,
    subscribersGained: sum('subscribersGained'),
    subscribersLost: sum('subscribersLost'),
    likes: sum('likes'),
    comments: sum('comments'),
  };
}

const toDay = (r: DayRow): AnalyticsDay => ({
  date: r.date,
  views: r.views,
  watchTimeSeconds: r.watch_seconds,
  subscribersGained: r.subscribers_gained,
  subscribersLost: r.subscribers_lost,
  likes: r.likes,
  comments: r.comments,
});

export class AnalyticsService {
  private readonly analytics: AnalyticsRepository;
  private readonly videos: VideosRepository;
  /** The day's salt, and the keys made under it (a player sends a heartbeat every 5 s: one HMAC per viewer, not per heartbeat). */
  private salt: { day: string; key: Buffer; made: Map<string, Buffer> } | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly writer: HeartbeatWriter,
  ) {
    this.analytics = new AnalyticsRepository(ctx.db);
    this.videos = new VideosRepository(ctx.db);
  }

  /**
   * The key a viewer's heartbeats are counted under: an HMAC under a salt derived from the
   * server's secret and the UTC date, so visitors' keys change every day and no IP is kept.
   */
  viewerKey(w: Watcher, now = new Date()): Buffer {
    const day = isoDay(now);
    if (this.salt?.day !== day)
      this.salt = { day, key: createHmac('sha256', this.ctx.config.jwtSecret).update(`analytics-salt:${day}`).digest(), made: new Map() };
    const who = 'userId' in w ? `u:${w.userId}` : `v:${w.ip}\n${w.userAgent}`;
    let key = this.salt.made.get(who);
    if (!key) {
      // Held in memory for the day at most, and forgotten all at once past KEYS_KEPT viewers.
      if (this.salt.made.size >= KEYS_KEPT) this.salt.made.clear();
      key = createHmac('sha256', this.salt.key).update(who).digest().subarray(0, 16);
      this.salt.made.set(who, key);
    }
    return key;
  }

  /** Records a heartbeat on a video the viewer may open (404 otherwise); positions past its end are dropped. */
  async heartbeat(body: HeartbeatBody, viewerId: string | null, watcher: Watcher): Promise<{ accepted: number }> {
    const { found, accepted } = await this.writer.accept(
      { videoId: body.videoId, sessionId: body.sessionId, source: body.source, positions: body.positions, viewerKey: this.viewerKey(watcher) },
      viewerId,
    );
    if (!found) throw notFound(videoMessages.notFound);
    return { accepted };
  }

  /** The caller's channel. */
  async channel(channelId: string, q: AnalyticsQuery): Promise<ChannelAnalytics> {
    const scope: Scope = { kind: 'channel', id: channelId };
    const { from, to, range } = await this.rangeOf(scope, q);
    // Independent reads, on separate connections where the pool has them.
    const [days, top, sources] = await Promise.all([
      range ? this.analytics.days(scope, range).then((rows) => rows.map(toDay)) : [],
      this.analytics.topVideos(channelId, q.range === 'lifetime' ? null : range, TOP_VIDEOS),
      this.sources(scope, range),
    ]);
    return {
      range: q.range,
      tz: q.tz,
      from,
      to,
      totals: totalsOf(days),
      days,
      sources,
      topVideos: top.map((t) => ({
        videoId: t.video_id,
        title: t.title,
        views: t.views,
        watchTimeSeconds: t.watch_seconds,
        averageViewDurationSeconds: t.views ? Math.round(t.watch_seconds / t.views) : 0,
      })),
    };
  }

  /** One of the caller's videos: 404 without it, 403 for anyone but its owner (staff included). */
  async video(viewerId: string, videoId: string, q: AnalyticsQuery): Promise<VideoAnalytics> {
    const video = await this.videos.findRow(videoId);
    if (!video) throw notFound(videoMessages.notFound);
    if (video.ownerId !== viewerId) throw forbidden(analyticsMessages.notOwner);
    const scope: Scope = { kind: 'video', id: videoId };
    const { from, to, range } = await this.rangeOf(scope, q);
    const [days, sources, retention] = await Promise.all([
      range ? this.analytics.days(scope, range).then((rows) => rows.map(toDay)) : [],
      this.sources(scope, range),
      range ? this.retention(videoId, video.duration, q.range === 'lifetime' ? null : range) : [],
    ]);
    return {
      range: q.range,
      tz: q.tz,
      from,
      to,
      totals: totalsOf(days),
      days,
      sources,
      videoId,
      title: video.title,
      durationSeconds: video.duration,
      retention,
    };
  }

  /** The range's days, one CSV row each (spreadsheet-safe cells). */
  static csv(days: AnalyticsDay[]): string {
    const header = ['date', 'views', 'watchTimeSeconds', 'subscribersGained', 'subscribersLost', 'likes', 'comments'];
    const rows = days.map((d) => [d.date, d.views, d.watchTimeSeconds, d.subscribersGained, d.subscribersLost, d.likes, d.comments]);
    return [header, ...rows].map((r) => r.map((c) => csvCell(String(c))).join(',')).join('\r\n') + '\r\n';
  }

  /**
   * The calendar days of the range in the asked zone, ending today there; `lifetime` starts at
   * the first aggregated activity (null, and no days, without any). An unknown zone is a 400.
   */
  private async rangeOf(scope: Scope, q: AnalyticsQuery): Promise<{ from: string | null; to: string; range: DayRange | null }> {
    let to: string;
    try {
      to = await this.analytics.today(q.tz);
    } catch (err) {
      // invalid_parameter_value: PostgreSQL does not know the zone.
      if (hasPgCode(err, '22023')) throw badRequest(UNKNOWN_TIME_ZONE, [{ path: 'tz', message: UNKNOWN_TIME_ZONE }]);
      throw err;
    }
    const from = q.range === 'lifetime' ? await this.analytics.firstDay(scope, q.tz) : addDays(to, 1 - RANGE_DAYS[q.range]);
    return { from, to, range: from ? { tz: q.tz, from, to } : null };
  }

  private async sources(scope: Scope, range: DayRange | null) {
    const views = range ? await this.analytics.sources(scope, range) : trafficSources.map(() => 0);
    return trafficSources.map((source, i) => ({ source, views: views[i] ?? 0 })).sort((a, b) => b.views - a.views);
  }

  /** Share of the range's views that played each bucket (rows of another bucket width, from an older duration, are left out). */
  private async retention(videoId: string, duration: number, range: DayRange | null) {
    const width = bucketSeconds(duration);
    const rows = (await this.analytics.retention(videoId, range)).filter((r) => r.bucket_seconds === width);
    const views = rows.reduce((a, r) => a + r.views, 0);
    if (!views) return [];
    const played: number[] = [];
    for (const r of rows) r.bucket_views.forEach((n, i) => (played[i] = (played[i] ?? 0) + n));
    return Array.from(played, (n, i) => ({ positionSeconds: i * width, share: (n ?? 0) / views }));
  }
}

/** A cell a spreadsheet shows as text: quoted when needed, and never read as a formula (= + - @ lead). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
