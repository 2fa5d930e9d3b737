import type { LogEntry, QueueItem, QueueState, Report, ReportTargetKind, TargetContext } from '@glimpse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { myReportsKey } from '@/components/moderation/moderation-calls.ts';
import { paths } from '@/config/paths.ts';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';

export const moderationKeys = {
  mine: myReportsKey,
  queue: (state: QueueState, kind: ReportTargetKind | '') => ['moderation', 'queue', state, kind] as const,
  log: ['moderation', 'log'] as const,
};

export const useMyReports = () =>
  useInfiniteQuery({
    queryKey: moderationKeys.mine,
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<Report>('reports/mine', 'data', {}, pageParam, signal),
  });

export const useQueue = (state: QueueState, kind: ReportTargetKind | '') =>
  useInfiniteQuery({
    queryKey: moderationKeys.queue(state, kind),
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<QueueItem>('moderation/reports', 'data', { state, kind }, pageParam, signal),
  });

export const useModerationLog = () =>
  useInfiniteQuery({
    queryKey: moderationKeys.log,
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<LogEntry>('moderation/log', 'data', {}, pageParam, signal),
  });

/** Where a reported item is shown in the app. */
export function targetHref(kind: ReportTargetKind, target: TargetContext): string | null {
  if (kind === 'channel') return target.userName ? paths.channel.videos.getHref(target.userName) : null;
  if (target.videoId) return paths.video.getHref(target.videoId);
  if (target.tweetId) return paths.tweet.getHref(target.tweetId);
  if (target.remoteVideoId) return paths.remoteVideo.getHref(target.remoteVideoId);
  return null;
}
