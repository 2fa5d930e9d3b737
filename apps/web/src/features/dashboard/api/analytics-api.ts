import { analyticsQuery, type AnalyticsRange, type ChannelAnalytics, type VideoAnalytics } from '@glimpse/contract';
import { useQuery } from '@tanstack/react-query';
import { api, saveApiDownload } from '@/lib/api-client.ts';

/** The browser's IANA time zone, so the days are the creator's calendar days; UTC when it has none the API accepts. */
export function browserTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return analyticsQuery.shape.tz.safeParse(tz).data ?? 'UTC';
}

export interface AnalyticsParams {
  range: AnalyticsRange;
  tz: string;
}

/** The channel's page when `videoId` is null, else that video's. */
const base = (videoId: string | null) => (videoId === null ? 'analytics/channel' : `analytics/videos/${encodeURIComponent(videoId)}`);

export const useChannelAnalytics = (params: AnalyticsParams) =>
  useQuery({
    queryKey: ['dashboard', 'analytics', 'channel', params],
    queryFn: ({ signal }) => api.get<ChannelAnalytics>(base(null), { ...params }, signal).then((r) => r.data),
    // Another range keeps the current figures on screen until its own arrive.
    placeholderData: (previous) => previous,
  });

export const useVideoAnalytics = (videoId: string, params: AnalyticsParams) =>
  useQuery({
    queryKey: ['dashboard', 'analytics', 'video', videoId, params],
    queryFn: ({ signal }) => api.get<VideoAnalytics>(base(videoId), { ...params }, signal).then((r) => r.data),
    placeholderData: (previous) => previous,
  });

/** The same figures as CSV, saved through the authorised download (the server names the file). */
export const downloadAnalyticsCsv = (videoId: string | null, { range, tz }: AnalyticsParams) =>
  saveApiDownload(`${base(videoId)}.csv?${new URLSearchParams({ range, tz }).toString()}`, `glimpse-analytics-${range}.csv`);
