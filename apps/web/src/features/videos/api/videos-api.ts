import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HeartbeatBody } from '@glimpse/contract';
import { moreRenditionsComing } from '@glimpse/contract/renditions';
import { api } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage, listOf } from '@/lib/pagination.ts';
import type { LikeStatus, ToggleSubscriptionResult, Video, VideoResult } from '@/types/api.ts';

/** Home: every published video, most viewed first, 10 per page (items at `data.data`, spec §7). */
export const homeVideosQueryOptions = infiniteQueryOptions({
  queryKey: ['videos', 'home'],
  queryFn: ({ pageParam, signal }) => fetchPage<Video>('videos', 'data', { sortBy: 'views' }, pageParam, signal),
  ...cursorPaging,
});

export const useHomeVideos = () => useInfiniteQuery(homeVideosQueryOptions);

/** GET videos/{id} answers `data.video` (spec §7). */
export const videoQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['videos', 'detail', id],
    queryFn: ({ signal }) => api.get<VideoResult>(`videos/${id}`, undefined, signal).then((r) => r.data.video),
  });

/** While the video is being made, polled: it starts playing, and each new rung reaches the player, without a reload (ADR 019). */
const PROCESSING_POLL_MS = 4000;
export const useVideo = (id: string) =>
  useQuery({ ...videoQueryOptions(id), refetchInterval: (q) => (q.state.data && moreRenditionsComing(q.state.data) ? PROCESSING_POLL_MS : false) });

export const similarVideosQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['videos', 'similar', id],
    queryFn: ({ signal }) => api.get<Record<string, unknown>>(`videos/${id}/similar`, { limit: 10 }, signal).then((r) => listOf<Video>(r.data, 'videos')),
  });

export const useSimilarVideos = (id: string) => useQuery(similarVideosQueryOptions(id));

/** Counted once playback starts; the page then shows the server's count. Failures are only logged (spec §8). */
export function useCountView() {
  const queryClient = useQueryClient();
  return (id: string, position: number) =>
    api
      .post<{ counted: boolean; views: number }>(`videos/${id}/views`, { position: Math.floor(position) })
      .then(({ data }) => queryClient.setQueryData(videoQueryOptions(id).queryKey, (v) => (v ? { ...v, views: data.views } : v)))
      .catch((err: unknown) => console.warn('View count failed', err));
}

/**
 * A played-positions report (analytics), with the viewer's token when there is one. As the page goes
 * away there is no time for a token refresh: the current token goes as it is (an expired one makes
 * the report anonymous, never refused).
 */
export const sendHeartbeat = (body: HeartbeatBody, keepalive: boolean) =>
  api.post<unknown>('analytics/heartbeat', body, keepalive ? { keepalive, skipRefresh: true } : {});

export interface LikeAnswer {
  likes: number;
  dislikes: number;
  likeStatus: LikeStatus;
}

export const reactToVideo = (id: string, action: 'like' | 'dislike') => api.post<LikeAnswer>(`likes/video/${id}/${action}`).then((r) => r.data);

export const toggleSubscription = (channelId: string) =>
  api.post<ToggleSubscriptionResult>(`subscriptions/toggle/${channelId}`).then((r) => r.data);
