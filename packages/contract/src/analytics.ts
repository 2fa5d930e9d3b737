import { z } from 'zod';
import { id } from './common.ts';
import { HEARTBEAT_MAX_POSITIONS, trafficSources } from './heartbeat.ts';

/**
 * Creator analytics (issue #15, ARCHITECTURE §11). The player reports what it played; the worker
 * rolls it into aggregates; the dashboard reads aggregates only.
 */

export * from './heartbeat.ts';
export const trafficSource = z.enum(trafficSources);

/**
 * One report of a viewing session (one player on one page, `sessionId` made by the player): the
 * whole seconds of the video it played since the last report (`positions`, in any order; repeats
 * are fine). Two tabs of one viewer, replays and seeks are deduplicated by the server.
 */
export const heartbeatBody = z.object({
  videoId: id,
  sessionId: id,
  source: trafficSource,
  positions: z.array(z.number().int().min(0).max(24 * 3600)).min(1).max(HEARTBEAT_MAX_POSITIONS),
});
export type HeartbeatBody = z.infer<typeof heartbeatBody>;

export const analyticsRanges = ['7d', '28d', '90d', '365d', 'lifetime'] as const;
export const analyticsRange = z.enum(analyticsRanges);
export type AnalyticsRange = z.infer<typeof analyticsRange>;

/** `tz`: the IANA time zone whose calendar days the series uses (the browser's), UTC by default. */
export const analyticsQuery = z.object({
  range: analyticsRange.default('28d'),
  tz: z
    .string()
    .max(64)
    .regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$|^UTC$/, 'Unknown time zone')
    .default('UTC'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const analyticsTotals = z.object({
  views: z.number().int(),
  watchTimeSeconds: z.number().int(),
  /** watchTimeSeconds / views, rounded; 0 without views. */
  averageViewDurationSeconds: z.number().int(),
  subscribersGained: z.number().int(),
  subscribersLost: z.number().int(),
  likes: z.number().int(),
  comments: z.number().int(),
});
export type AnalyticsTotals = z.infer<typeof analyticsTotals>;

/** One calendar day (YYYY-MM-DD in `tz`) of the range, days without activity included (zeros). */
export const analyticsDay = analyticsTotals.omit({ averageViewDurationSeconds: true }).extend({ date: z.string() });
export type AnalyticsDay = z.infer<typeof analyticsDay>;

export const sourceShare = z.object({ source: trafficSource, views: z.number().int() });

/** Audience retention: for each point of the video, the share (0..1) of views that played it. */
export const retentionPoint = z.object({ positionSeconds: z.number(), share: z.number() });

export const topVideo = z.object({
  videoId: z.string(),
  title: z.string(),
  views: z.number().int(),
  watchTimeSeconds: z.number().int(),
  averageViewDurationSeconds: z.number().int(),
});

/** GET analytics/channel: the caller's channel. */
export const channelAnalytics = z.object({
  range: analyticsRange,
  tz: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  totals: analyticsTotals,
  days: z.array(analyticsDay),
  sources: z.array(sourceShare),
  topVideos: z.array(topVideo),
});
export type ChannelAnalytics = z.infer<typeof channelAnalytics>;

/** GET analytics/videos/:id: one of the caller's videos. */
export const videoAnalytics = channelAnalytics.omit({ topVideos: true }).extend({
  videoId: z.string(),
  title: z.string(),
  durationSeconds: z.number(),
  retention: z.array(retentionPoint),
});
export type VideoAnalytics = z.infer<typeof videoAnalytics>;

export const analyticsMessages = {
  loginRequired: 'Please login to see analytics',
  notOwner: 'Only the owner of the video can see its analytics',
  recorded: 'Heartbeat recorded',
  fetched: 'Analytics fetched successfully',
} as const;
