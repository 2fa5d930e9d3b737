import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsMessages, trafficSources, type TrafficSource } from '@glimpse/contract';
import { bearer, createTestApp, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';
import { AnalyticsService, bucketSeconds, csvCell } from './analytics.service.ts';
import { wholeMonths } from './analytics.repository.ts';
import { HeartbeatWriter } from './heartbeat-writer.ts';
import { rollupAnalytics } from './rollup.ts';

let t: TestContext;
let service: AnalyticsService;

beforeAll(async () => {
  t = await createTestApp();
  service = new AnalyticsService(t.ctx, new HeartbeatWriter(t.ctx.db, t.app.log, { batchRows: 1, cacheMs: 0 }));
});
afterAll(() => t.close());

// Each test starts from empty analytics tables and a rollup that has rolled nothing.
beforeEach(async () => {
  await t.ctx.db.execute(sql`TRUNCATE watch_events, subscription_events, analytics_video_hourly, analytics_channel_hourly,
    analytics_video_daily, analytics_video_monthly, analytics_retention_daily`);
  await t.ctx.db.execute(sql`UPDATE analytics_rollup_state SET rolled_until = NULL`);
});

const HOUR = 3_600_000;
const EPOCH_MS = sql.raw('(extract(epoch FROM hour) * 1000)::float8');
const later = () => new Date(Date.now() + 2 * HOUR);
const session = () => randomUUID();

async function beatAs(as: UserRow | undefined, body: object, extra: Record<string, string> = {}) {
  const headers = { ...(as ? await bearer(t.ctx, as) : {}), ...extra };
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/analytics/heartbeat', payload: body, headers, remoteAddress: extra['x-ip'] ?? '127.0.0.1' });
  return { status: res.statusCode, body: res.json() };
}

/** A raw heartbeat with an explicit time (what the API writes, with `at` chosen by the test). */
async function raw(e: { video: string; viewer: string; session?: string; source?: TrafficSource; positions: number[]; at: Date }) {
  const key = service.viewerKey({ userId: e.viewer }, e.at);
  await t.ctx.db.execute(sql`INSERT INTO watch_events (video_id, viewer_key, session_id, source, positions, at)
    VALUES (${e.video}, decode(${key.toString('hex')}, 'hex'), ${e.session ?? session()}, ${e.source ?? 'home'}, ${`{${e.positions.join(',')}}`}::int[], ${e.at.toISOString()}::timestamptz)`);
}
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/** The last UTC midnight at least `daysAgo` days back. */
const midnight = (daysAgo: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - daysAgo * 86_400_000);

async function videoHour(videoId: string) {
  return rows<{ hour: number; views: number; watch_seconds: number; source_views: number[] }>(
    t,
    sql`SELECT ${EPOCH_MS} AS hour, views, watch_seconds::int AS watch_seconds, source_views FROM analytics_video_hourly WHERE video_id = ${videoId} ORDER BY hour`,
  );
}

describe('POST /analytics/heartbeat', () => {
  it('answers 400 for bad input and 404 for a video the caller may not open, storing nothing', async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const hidden = await createVideo(t.ctx, owner, { privacy: 'private' });
    const processing = await createVideo(t.ctx, owner, { status: 'processing' });
    const ok = { videoId: hidden.id, sessionId: session(), source: 'home', positions: [1] };
    expectError(await beatAs(undefined, { ...ok, positions: [] }), 400);
    expectError(await beatAs(undefined, { ...ok, positions: range(0, 121) }), 400);
    expectError(await beatAs(undefined, { ...ok, positions: [-1] }), 400);
    expectError(await beatAs(undefined, { ...ok, source: 'mars' }), 400);
    expectError(await beatAs(undefined, { ...ok, sessionId: 'nope' }), 400);
    expectError(await beatAs(undefined, { ...ok, videoId: 'nope' }), 400);
    expectError(await beatAs(undefined, { ...ok, videoId: MISSING_ID }), 404, 'Video not found');
    expectError(await beatAs(undefined, ok), 404, 'Video not found');
    expectError(await beatAs(other, ok), 404, 'Video not found');
    expectError(await beatAs(other, { ...ok, videoId: processing.id }), 404, 'Video not found');
    expect((await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM watch_events`))[0]!.n).toBe(0);
    // The owner may open their private video, so their player reports.
    expect((await beatAs(owner, ok)).status).toBe(202);
  });

  it('accepts a visitor and a logged-in viewer with 202, keeping distinct positions inside the video', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { duration: 10.5 });
    const res = await beatAs(undefined, { videoId: video.id, sessionId: session(), source: 'search', positions: [3, 3, 4, 10, 11, 500] });
    expect(res).toEqual({ status: 202, body: { statusCode: 202, data: { accepted: 3 }, message: analyticsMessages.recorded, success: true } });
    const viewer = await createUser(t.ctx);
    // All past the end: accepted, nothing kept.
    expect((await beatAs(viewer, { videoId: video.id, sessionId: session(), source: 'home', positions: [11, 12] })).body.data).toEqual({ accepted: 0 });
    const stored = await rows<{ positions: number[]; source: string }>(t, sql`SELECT positions, source FROM watch_events`);
    expect(stored).toEqual([{ positions: [3, 4, 10], source: 'search' }]);
  });

  it('stores visitors under a salted hash: no IP anywhere, the same key for the same IP and browser that day', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    const ip = '203.0.113.77';
    const send = (addr: string, ua: string) =>
      beatAs(undefined, { videoId: video.id, sessionId: session(), source: 'external', positions: [1, 2] }, { 'x-ip': addr, 'user-agent': ua });
    for (const [addr, ua] of [[ip, 'Firefox'], [ip, 'Firefox'], [ip, 'Chrome'], ['198.51.100.9', 'Firefox']] as const) expect((await send(addr, ua)).status).toBe(202);
    const stored = await rows<{ row: string; key: string }>(t, sql`SELECT row_to_json(e)::text AS row, encode(viewer_key, 'escape') AS key FROM watch_events e`);
    const text = stored.map((r) => `${r.row}\n${r.key}`).join('\n');
    for (const needle of [ip, '203.0.113', '198.51.100.9', 'Firefox']) expect(text).not.toContain(needle);
    const keys = await rows<{ key: string }>(t, sql`SELECT encode(viewer_key, 'hex') AS key FROM watch_events`);
    expect(new Set(keys.map((k) => k.key)).size).toBe(3);
    // The salt is the day's: tomorrow the same visitor has another key; an account keeps one per day too.
    const today = new Date();
    const visitor = { ip, userAgent: 'Firefox' };
    expect(service.viewerKey(visitor, today).equals(service.viewerKey(visitor, new Date(today.getTime() + 86_400_000)))).toBe(false);
    expect(service.viewerKey(visitor, today).equals(service.viewerKey(visitor, today))).toBe(true);
    // The keys kept for the day are the ones the HMAC makes: made again after the day's keys were dropped, the same.
    const kept = Buffer.from(service.viewerKey(visitor, today));
    service.viewerKey(visitor, new Date(today.getTime() + 86_400_000));
    expect(service.viewerKey(visitor, today).equals(kept)).toBe(true);
  });
});

describe('HeartbeatWriter (the buffer and the video cache the route uses outside tests)', () => {
  const stored = async () => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM watch_events`))[0]!.n;
  const beat = (videoId: string, positions = [1, 2]) => ({ videoId, viewerKey: Buffer.alloc(16, 7), sessionId: session(), source: 'home' as const, positions });

  it('writes heartbeats together: on flush(), when a batch fills (before its last answer), and within FLUSH_MS', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { duration: 10 });
    const clock = Date.parse('2026-01-02T03:04:05Z');
    const writer = new HeartbeatWriter(t.ctx.db, t.app.log, { batchRows: 3, cacheMs: 5000, now: () => clock });
    expect(await writer.accept(beat(video.id, [9, 2, 2, 10]), null)).toEqual({ found: true, accepted: 2 });
    expect(await writer.accept(beat(video.id), null)).toEqual({ found: true, accepted: 2 });
    expect(await stored()).toBe(0);
    await writer.flush();
    const written = await rows<{ positions: number[]; at: number }>(t, sql`SELECT positions, (extract(epoch FROM at) * 1000)::float8 AS at FROM watch_events ORDER BY positions`);
    expect(written).toEqual([{ positions: [1, 2], at: clock }, { positions: [2, 9], at: clock }]);
    // Nothing kept (all past the end): accepted, nothing buffered.
    expect(await writer.accept(beat(video.id, [10, 11]), null)).toEqual({ found: true, accepted: 0 });
    for (let i = 0; i < 3; i++) await writer.accept(beat(video.id), null);
    expect(await stored()).toBe(5);
    await writer.accept(beat(video.id), null);
    await vi.waitFor(async () => expect(await stored()).toBe(6), { timeout: 5000, interval: 50 });
    await writer.close();
  });

  it('reuses what the visibility rule said about a video for cacheMs: a video made private refuses heartbeats after that', async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    let clock = Date.now();
    const writer = new HeartbeatWriter(t.ctx.db, t.app.log, { batchRows: 100, cacheMs: 5000, now: () => clock });
    expect((await writer.accept(beat(video.id), null)).found).toBe(true);
    await t.ctx.db.execute(sql`UPDATE videos SET privacy = 'private' WHERE id = ${video.id}`);
    clock += 4999;
    expect((await writer.accept(beat(video.id), other.id)).found).toBe(true);
    clock += 1;
    expect((await writer.accept(beat(video.id), null)).found).toBe(false);
    expect((await writer.accept(beat(video.id), other.id)).found).toBe(false);
    expect((await writer.accept(beat(video.id), owner.id)).found).toBe(true);
    expect((await writer.accept(beat(MISSING_ID), owner.id)).found).toBe(false);
    await writer.close();
    expect(await stored()).toBe(3);
  });

  it('writes what is buffered when the app closes (a graceful stop loses nothing)', async () => {
    const app = await createTestApp({ ANALYTICS_BATCH_ROWS: '100', ANALYTICS_VIDEO_CACHE_MS: '5000' });
    try {
      const video = await createVideo(app.ctx, await createUser(app.ctx));
      const res = await app.app.inject({ method: 'POST', url: '/api/v1/analytics/heartbeat', payload: { videoId: video.id, sessionId: session(), source: 'home', positions: [1] } });
      expect(res.statusCode).toBe(202);
      const count = async () => (await rows<{ n: number }>(app, sql`SELECT count(*)::int AS n FROM watch_events`))[0]!.n;
      expect(await count()).toBe(0);
      await app.app.close();
      expect(await count()).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('rollup', () => {
  it('counts two tabs of one viewer in one hour as one view with the union of their seconds; replays add nothing; seeks skip', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { duration: 60 });
    const at = new Date(midnight(2).getTime() + 10 * HOUR);
    const viewer = randomUUID();
    // Tab 1 from search plays 0-19, tab 2 (opened later, from home) plays 10-29.
    await raw({ video: video.id, viewer, source: 'search', positions: range(0, 20), at: new Date(at.getTime() + 60_000) });
    await raw({ video: video.id, viewer, source: 'home', positions: range(10, 30), at: new Date(at.getTime() + 120_000) });
    // A replay of 0-9 in the same hour.
    await raw({ video: video.id, viewer, source: 'search', positions: range(0, 10), at: new Date(at.getTime() + 30 * 60_000) });
    // Another viewer seeks: 0-4 then 40-44.
    const seeker = randomUUID();
    await raw({ video: video.id, viewer: seeker, source: 'direct', positions: [...range(0, 5), ...range(40, 45)], at: new Date(at.getTime() + 5 * 60_000) });
    // The first viewer comes back the next hour: a new view.
    await raw({ video: video.id, viewer, source: 'channel', positions: range(0, 5), at: new Date(at.getTime() + HOUR + 60_000) });
    await rollupAnalytics(t.ctx, later());
    const src = (counts: Partial<Record<TrafficSource, number>>) => trafficSources.map((s) => counts[s] ?? 0);
    expect(await videoHour(video.id)).toEqual([
      { hour: at.getTime(), views: 2, watch_seconds: 30 + 10, source_views: src({ search: 1, direct: 1 }) },
      { hour: at.getTime() + HOUR, views: 1, watch_seconds: 5, source_views: src({ channel: 1 }) },
    ]);
    const res = await call(t, 'GET', `/analytics/videos/${video.id}?range=7d`, { as: owner });
    expect(res.body.data.totals).toMatchObject({ views: 3, watchTimeSeconds: 45, averageViewDurationSeconds: 15 });
    expect(res.body.data.sources.slice(0, 3)).toEqual([
      { source: 'search', views: 1 },
      { source: 'channel', views: 1 },
      { source: 'direct', views: 1 },
    ]);
    // Retention (1 s buckets): second 0 was played in all 3 views, second 25 in one, second 35 in none.
    const retention = res.body.data.retention as { positionSeconds: number; share: number }[];
    expect(retention).toHaveLength(60);
    expect([retention[0], retention[25], retention[35], retention[42]]).toEqual([
      { positionSeconds: 0, share: 1 },
      { positionSeconds: 25, share: 1 / 3 },
      { positionSeconds: 35, share: 0 },
      { positionSeconds: 42, share: 1 / 3 },
    ]);
  });

  it('writes aggregates equal to the raw events counted directly, and rolls each hour once even when run twice at once', async () => {
    const owner = await createUser(t.ctx);
    const videos = [await createVideo(t.ctx, owner, { duration: 30 }), await createVideo(t.ctx, owner, { duration: 1000 })];
    const start = midnight(3).getTime() - 3 * HOUR;
    const viewers = Array.from({ length: 6 }, () => randomUUID());
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const events: { video: string; viewer: string; source: TrafficSource; positions: number[]; at: Date; duration: number }[] = [];
    for (let i = 0; i < 120; i++) {
      const v = videos[rand(2)]!;
      const from = rand(Math.floor(v.duration));
      const positions = range(from, Math.min(from + 1 + rand(20), Math.floor(v.duration)));
      events.push({ video: v.id, viewer: viewers[rand(6)]!, source: trafficSources[rand(8)]!, positions, at: new Date(start + rand(8 * HOUR)), duration: v.duration });
    }
    for (const e of events) await raw(e);
    await Promise.all([rollupAnalytics(t.ctx, later()), rollupAnalytics(t.ctx, later())]);

    // The definition, computed in JavaScript from the same events.
    const views = new Map<string, { video: string; hour: number; first: number; source: TrafficSource; seconds: Set<number>; duration: number }>();
    for (const e of events) {
      const hour = Math.floor(e.at.getTime() / HOUR) * HOUR;
      const k = `${e.video}|${e.viewer}|${hour}`;
      const view = views.get(k) ?? { video: e.video, hour, first: Infinity, source: e.source, seconds: new Set<number>(), duration: e.duration };
      if (e.at.getTime() < view.first) Object.assign(view, { first: e.at.getTime(), source: e.source });
      for (const p of e.positions) view.seconds.add(p);
      views.set(k, view);
    }
    const expected = new Map<string, { views: number; watch: number; sources: number[] }>();
    for (const v of views.values()) {
      const k = `${v.video}|${v.hour}`;
      const agg = expected.get(k) ?? { views: 0, watch: 0, sources: trafficSources.map(() => 0) };
      agg.views += 1;
      agg.watch += v.seconds.size;
      agg.sources[trafficSources.indexOf(v.source)]! += 1;
      expected.set(k, agg);
    }
    const stored = await rows<{ video_id: string; hour: number; views: number; watch_seconds: number; source_views: number[] }>(
      t,
      sql`SELECT video_id, ${EPOCH_MS} AS hour, views, watch_seconds::int AS watch_seconds, source_views FROM analytics_video_hourly`,
    );
    expect(new Map(stored.map((r) => [`${r.video_id}|${r.hour}`, { views: r.views, watch: r.watch_seconds, sources: r.source_views }]))).toEqual(expected);
    const [channel] = await rows<{ views: number; watch: number }>(
      t,
      sql`SELECT sum(views)::int AS views, sum(watch_seconds)::int AS watch FROM analytics_channel_hourly WHERE channel_id = ${owner.id}`,
    );
    expect(channel).toEqual({ views: views.size, watch: [...views.values()].reduce((a, v) => a + v.seconds.size, 0) });

    // Retention of the long video (buckets of 10 s): per bucket, the views that played a second of it.
    const long = videos[1]!;
    const width = bucketSeconds(long.duration);
    const longViews = [...views.values()].filter((v) => v.video === long.id);
    const played = Array.from({ length: 100 }, (_, b) => longViews.filter((v) => [...v.seconds].some((s) => Math.floor(s / width) === b)).length);
    const [ret] = await rows<{ views: number; played: number[] }>(
      t,
      sql`SELECT sum(views)::int AS views,
                 (SELECT array_agg(s ORDER BY i) FROM (SELECT i, sum(x)::int AS s FROM analytics_retention_daily r, unnest(r.bucket_views) WITH ORDINALITY u (x, i)
                  WHERE r.video_id = ${long.id} GROUP BY i) q) AS played
          FROM analytics_retention_daily WHERE video_id = ${long.id}`,
    );
    expect(ret!.views).toBe(longViews.length);
    expect(ret!.played).toEqual(played);
  });

  it('counts subscribers gained and lost, likes and comments by the hour they happened', async () => {
    const owner = await createUser(t.ctx);
    const fan = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    await call(t, 'POST', `/subscriptions/toggle/${owner.id}`, { as: fan });
    await call(t, 'POST', `/subscriptions/toggle/${owner.id}`, { as: fan });
    await call(t, 'POST', `/subscriptions/toggle/${owner.id}`, { as: fan });
    await call(t, 'POST', `/likes/video/${video.id}/like`, { as: fan });
    await call(t, 'POST', `/comments/video/${video.id}`, { as: fan, body: { content: 'great' } });
    await rollupAnalytics(t.ctx, later());
    const res = await call(t, 'GET', '/analytics/channel?range=7d', { as: owner });
    expect(res.body.data.totals).toEqual({
      views: 0,
      watchTimeSeconds: 0,
      averageViewDurationSeconds: 0,
      subscribersGained: 2,
      subscribersLost: 1,
      likes: 1,
      comments: 1,
    });
    const videoRes = await call(t, 'GET', `/analytics/videos/${video.id}?range=7d`, { as: owner });
    expect(videoRes.body.data.totals).toMatchObject({ likes: 1, comments: 1, subscribersGained: 0 });
  });

  it('deletes raw rows older than ANALYTICS_RAW_DAYS once rolled up, keeping newer ones', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    const old = new Date(Date.now() - (t.config.analytics.rawDays + 1) * 86_400_000);
    const recent = new Date(Date.now() - 2 * 86_400_000);
    await raw({ video: video.id, viewer: randomUUID(), positions: [1], at: old });
    await raw({ video: video.id, viewer: randomUUID(), positions: [1], at: recent });
    await t.ctx.db.execute(sql`INSERT INTO subscription_events (channel_id, delta, at) VALUES (${owner.id}, 1, ${old.toISOString()}::timestamptz)`);
    const { pruned } = await rollupAnalytics(t.ctx, later());
    expect(pruned).toBe(2);
    expect(await rows(t, sql`SELECT (extract(epoch FROM at) * 1000)::float8 AS at FROM watch_events`)).toEqual([{ at: recent.getTime() }]);
    expect(await rows(t, sql`SELECT 1 FROM subscription_events`)).toEqual([]);
    // The pruned rows were counted before they went.
    const [agg] = await rows<{ views: number; gained: number }>(
      t,
      sql`SELECT sum(views)::int AS views, sum(subscribers_gained)::int AS gained FROM analytics_channel_hourly WHERE channel_id = ${owner.id}`,
    );
    expect(agg).toEqual({ views: 2, gained: 1 });
  });

  it('never prunes raw rows it has not rolled up', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    await t.ctx.db.execute(sql`UPDATE analytics_rollup_state SET rolled_until = ${new Date(Date.now() - 40 * 86_400_000).toISOString()}::timestamptz`);
    await raw({ video: video.id, viewer: randomUUID(), positions: [1], at: new Date(Date.now() - 35 * 86_400_000) });
    // A clock before the watermark moves: nothing new is rolled, so the row stays.
    const { pruned } = await rollupAnalytics(t.ctx, new Date(Date.now() - 40 * 86_400_000));
    expect(pruned).toBe(0);
    expect(await rows(t, sql`SELECT 1 FROM watch_events`)).toHaveLength(1);
  });
});

describe('GET /analytics/channel and /analytics/videos/{id}', () => {
  it('answers 401 without a login, 400 for a bad range or zone, 404 for an unknown video, 403 for anyone but the owner', async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const admin = await createUser(t.ctx, { role: 'admin' });
    const video = await createVideo(t.ctx, owner);
    for (const url of ['/analytics/channel', `/analytics/videos/${video.id}`, '/analytics/channel.csv', `/analytics/videos/${video.id}.csv`]) {
      expectError(await call(t, 'GET', url), 401, analyticsMessages.loginRequired);
      expectError(await call(t, 'GET', `${url}?range=3d`, { as: owner }), 400);
      expectError(await call(t, 'GET', `${url}?tz=${encodeURIComponent('Europe/Paris; DROP')}`, { as: owner }), 400);
      // Well-formed, yet no such zone: PostgreSQL's refusal is a 400, never a 500.
      expectError(await call(t, 'GET', `${url}?tz=Mars/Olympus_Mons`, { as: owner }), 400, 'Unknown time zone');
    }
    expectError(await call(t, 'GET', '/analytics/videos/nope', { as: owner }), 400);
    expectError(await call(t, 'GET', `/analytics/videos/${MISSING_ID}`, { as: owner }), 404, 'Video not found');
    expectError(await call(t, 'GET', `/analytics/videos/${MISSING_ID}.csv`, { as: owner }), 404, 'Video not found');
    for (const as of [other, admin]) {
      expectError(await call(t, 'GET', `/analytics/videos/${video.id}`, { as }), 403, analyticsMessages.notOwner);
      expectError(await call(t, 'GET', `/analytics/videos/${video.id}.csv`, { as }), 403, analyticsMessages.notOwner);
    }
  });

  it("answers the owner's figures with every day of the range, and only their own channel's", async () => {
    const owner = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { title: 'Dawn' });
    const theirs = await createVideo(t.ctx, other);
    const at = new Date(midnight(1).getTime() + 12 * HOUR);
    await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 12), at });
    await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 6), at });
    await raw({ video: theirs.id, viewer: randomUUID(), positions: [1], at });
    await rollupAnalytics(t.ctx, later());
    const res = await call(t, 'GET', '/analytics/channel?range=28d', { as: owner });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(analyticsMessages.fetched);
    const data = res.body.data;
    expect(data.days).toHaveLength(28);
    expect(data.to).toBe(new Date().toISOString().slice(0, 10));
    expect(data.days.at(-1).date).toBe(data.to);
    expect(data.days[0].date).toBe(data.from);
    const day = at.toISOString().slice(0, 10);
    expect(data.days.find((d: { date: string }) => d.date === day)).toEqual({ date: day, views: 2, watchTimeSeconds: 18, subscribersGained: 0, subscribersLost: 0, likes: 0, comments: 0 });
    expect(data.days.filter((d: { views: number }) => d.views > 0)).toHaveLength(1);
    expect(data.totals).toMatchObject({ views: 2, watchTimeSeconds: 18, averageViewDurationSeconds: 9 });
    expect(data.topVideos).toEqual([{ videoId: video.id, title: 'Dawn', views: 2, watchTimeSeconds: 18, averageViewDurationSeconds: 9 }]);
    expect(data.sources).toHaveLength(trafficSources.length);
    expect(data.sources[0]).toEqual({ source: 'home', views: 2 });
    for (const r of ['7d', '90d', '365d'] as const) expect((await call(t, 'GET', `/analytics/channel?range=${r}`, { as: owner })).body.data.days).toHaveLength(Number.parseInt(r));
  });

  it('ranks top videos over long ranges from whole months plus the edge days: the same figures as summing every day', async () => {
    const owner = await createUser(t.ctx);
    const videos = [await createVideo(t.ctx, owner, { duration: 60 }), await createVideo(t.ctx, owner, { duration: 60 }), await createVideo(t.ctx, owner, { duration: 60 })];
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    // Views on days spread over 400 days (month edges included), the most on the third video lately.
    for (let i = 0; i < 90; i++) {
      const video = videos[i < 30 ? 2 : rand(3)]!;
      const daysAgo = i < 30 ? rand(20) : rand(400);
      await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 1 + rand(50)), at: new Date(midnight(daysAgo).getTime() + rand(24) * HOUR) });
    }
    await rollupAnalytics(t.ctx, later());
    for (const r of ['7d', '28d', '90d', '365d', 'lifetime']) {
      const { data } = (await call(t, 'GET', `/analytics/channel?range=${r}`, { as: owner })).body;
      const expected = await rows<{ videoId: string; views: number; watchTimeSeconds: number }>(
        t,
        sql`SELECT video_id AS "videoId", sum(views)::int AS views, sum(watch_seconds)::int AS "watchTimeSeconds" FROM analytics_video_daily
            WHERE channel_id = ${owner.id} AND day BETWEEN ${data.from}::date AND ${data.to}::date GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1`,
      );
      expect(expected.length, r).toBeGreaterThan(0);
      expect(data.topVideos.map(({ videoId, views, watchTimeSeconds }: Record<string, unknown>) => ({ videoId, views, watchTimeSeconds })), r).toEqual(expected);
    }
  });

  it('splits a range into its whole calendar months and the days at its edges', () => {
    expect(wholeMonths('2025-11-26', '2026-11-25')).toEqual({ first: '2025-12-01', end: '2026-11-01' });
    expect(wholeMonths('2026-02-01', '2026-02-28')).toEqual({ first: '2026-02-01', end: '2026-03-01' });
    expect(wholeMonths('2024-12-31', '2025-01-31')).toEqual({ first: '2025-01-01', end: '2025-02-01' });
    expect(wholeMonths('2026-03-05', '2026-04-10')).toBeNull();
    expect(wholeMonths('2026-03-01', '2026-03-30')).toBeNull();
  });

  it('starts lifetime at the first activity, and has no days at all without any', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    const empty = await call(t, 'GET', '/analytics/channel?range=lifetime', { as: owner });
    expect(empty.body.data).toMatchObject({ from: null, days: [], topVideos: [], totals: { views: 0 } });
    expect((await call(t, 'GET', `/analytics/videos/${video.id}?range=lifetime`, { as: owner })).body.data).toMatchObject({ from: null, days: [], retention: [] });
    const first = midnight(400);
    await raw({ video: video.id, viewer: randomUUID(), positions: [1, 2], at: new Date(first.getTime() + HOUR) });
    await raw({ video: video.id, viewer: randomUUID(), positions: [1], at: midnight(1) });
    await rollupAnalytics(t.ctx, later());
    for (const url of ['/analytics/channel?range=lifetime', `/analytics/videos/${video.id}?range=lifetime`]) {
      const data = (await call(t, 'GET', url, { as: owner })).body.data;
      expect(data.from).toBe(first.toISOString().slice(0, 10));
      expect(data.days).toHaveLength(401);
      expect(data.totals.views).toBe(2);
    }
    // 365 days leave out the first view; lifetime's top videos count both.
    expect((await call(t, 'GET', '/analytics/channel?range=365d', { as: owner })).body.data.totals.views).toBe(1);
    expect((await call(t, 'GET', '/analytics/channel?range=lifetime', { as: owner })).body.data.topVideos[0].views).toBe(2);
  });

  it('puts activity near midnight UTC on the calendar day of the asked time zone', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    const m = midnight(3);
    // 23:30 UTC the day before, and 00:30 UTC.
    await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 3), at: new Date(m.getTime() - 30 * 60_000) });
    await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 5), at: new Date(m.getTime() + 30 * 60_000) });
    await rollupAnalytics(t.ctx, later());
    const before = new Date(m.getTime() - 86_400_000).toISOString().slice(0, 10);
    const at = m.toISOString().slice(0, 10);
    const viewsOn = async (tz: string, url: string) => {
      const data = (await call(t, 'GET', `${url}?range=7d&tz=${encodeURIComponent(tz)}`, { as: owner })).body.data;
      expect(data.tz).toBe(tz);
      return Object.fromEntries(data.days.filter((d: { views: number }) => d.views > 0).map((d: { date: string; views: number }) => [d.date, d.views]));
    };
    for (const url of ['/analytics/channel', `/analytics/videos/${video.id}`]) {
      expect(await viewsOn('UTC', url)).toEqual({ [before]: 1, [at]: 1 });
      // 19:30 and 20:30 (or 18:30 and 19:30) the day before in New York.
      expect(await viewsOn('America/New_York', url)).toEqual({ [before]: 2 });
      // 08:30 and 09:30 the same day in Tokyo.
      expect(await viewsOn('Asia/Tokyo', url)).toEqual({ [at]: 2 });
    }
  });

  it('exports the days as CSV: a download, one row per day', async () => {
    const owner = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner);
    const at = new Date(midnight(1).getTime() + 6 * HOUR);
    await raw({ video: video.id, viewer: randomUUID(), positions: range(0, 7), at });
    await rollupAnalytics(t.ctx, later());
    for (const url of ['/analytics/channel.csv?range=7d', `/analytics/videos/${video.id}.csv?range=7d`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: await bearer(t.ctx, owner) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="glimpse-analytics-[\w-]+-7d\.csv"$/);
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe('date,views,watchTimeSeconds,subscribersGained,subscribersLost,likes,comments');
      expect(lines).toHaveLength(8);
      expect(lines).toContain(`${at.toISOString().slice(0, 10)},1,7,0,0,0,0`);
    }
  });

  it('keeps CSV cells from being read as formulas', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '2024-01-01', '12', 'a,b', 'say "hi"'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      '2024-01-01',
      '12',
      '"a,b"',
      '"say ""hi"""',
    ]);
    expect(AnalyticsService.csv([{ date: '2024-01-01', views: -1, watchTimeSeconds: 0, subscribersGained: 0, subscribersLost: 0, likes: 0, comments: 0 }])).toContain(
      "2024-01-01,'-1,0",
    );
  });
});

describe('the hour in progress', () => {
  it('shows after the next rollup, is replaced (not added) by each run, and becomes final once its hour is rolled', async () => {
    const owner = await createUser(t.ctx);
    const viewer = await createUser(t.ctx);
    const video = await createVideo(t.ctx, owner, { duration: 60 });
    expect((await beatAs(viewer, { videoId: video.id, sessionId: session(), source: 'direct', positions: range(0, 20) })).status).toBe(202);
    const totals = async () => (await call(t, 'GET', `/analytics/videos/${video.id}?range=7d`, { as: owner })).body.data.totals;
    const provisional = async () =>
      (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM analytics_video_hourly WHERE provisional AND video_id = ${video.id}`))[0]!.n;

    await rollupAnalytics(t.ctx);
    await rollupAnalytics(t.ctx);
    expect(await totals()).toMatchObject({ views: 1, watchTimeSeconds: 20 });
    expect(await provisional()).toBe(1);

    const top = async () => (await call(t, 'GET', '/analytics/channel?range=lifetime', { as: owner })).body.data.topVideos;
    expect(await top()).toMatchObject([{ videoId: video.id, views: 1, watchTimeSeconds: 20 }]);

    await rollupAnalytics(t.ctx, later());
    expect(await totals()).toMatchObject({ views: 1, watchTimeSeconds: 20 });
    expect(await provisional()).toBe(0);
    expect(await top()).toMatchObject([{ videoId: video.id, views: 1, watchTimeSeconds: 20 }]);
  });
});
