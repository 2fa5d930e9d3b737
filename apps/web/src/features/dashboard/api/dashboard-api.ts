import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VideoSummary } from '@/components/media/types.ts';
import { api } from '@/lib/api-client.ts';
import type { ChannelStatsResult, VideoResult } from '@/types/api.ts';

export interface DashboardVideo extends VideoSummary {
  likes: number;
  dislikes: number;
  status: 'processing' | 'ready' | 'failed';
  progress: number;
  failureReason?: string | null;
}

const POLL_MS = 3000;

export const statsQueryOptions = queryOptions({
  queryKey: ['dashboard', 'stats'],
  queryFn: ({ signal }) => api.get<ChannelStatsResult>('dashboard/channel-stats', undefined, signal).then((r) => r.data.stats),
});

type VideoPage = { videos: DashboardVideo[]; hasNextPage: boolean; nextCursor: string | null };

/** Every own video: the table shows them all, so all pages are fetched (100 per call). */
async function fetchAllVideos(signal?: AbortSignal): Promise<DashboardVideo[]> {
  const all: DashboardVideo[] = [];
  let cursor: string | null = null;
  do {
    const res: { data: VideoPage } = await api.get<VideoPage>('dashboard/channel-videos', { limit: 100, cursor }, signal);
    const data = res.data;
    all.push(...(data.videos ?? []));
    cursor = data.hasNextPage && data.videos?.length ? data.nextCursor : null;
  } while (cursor);
  return all;
}

export const videosKey = ['dashboard', 'videos'] as const;

/** Polls while any video is still processing, so progress and the final state show up by themselves. */
export const useDashboardVideos = () =>
  useQuery({
    queryKey: videosKey,
    queryFn: ({ signal }) => fetchAllVideos(signal),
    refetchInterval: (q) => (q.state.data?.some((v) => v.status === 'processing') ? POLL_MS : false),
  });

export const useStats = () => useQuery(statsQueryOptions);

export function useRefreshDashboard() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['dashboard'] });
}

export function useSetVideo() {
  const qc = useQueryClient();
  return (id: string, change: Partial<DashboardVideo>) =>
    qc.setQueryData<DashboardVideo[]>(videosKey, (list) => list?.map((v) => (v._id === id ? { ...v, ...change } : v)));
}

export const publishVideo = (id: string, isPublished: boolean) => api.patch<VideoResult>(`videos/${id}/publish`, { isPublished });

export const deleteVideo = (id: string) => api.delete<unknown>(`videos/${id}`);

export interface VideoEdit {
  title: string;
  description: string;
  thumbnail: File | null;
}

/**
 * Spec §5: the form of a video edit holds only what changed (trimmed text compared with the
 * current values, a new thumbnail when one was picked), or null when nothing did.
 */
export function editForm(video: Pick<VideoSummary, 'title' | 'description'>, edit: VideoEdit): FormData | null {
  const form = new FormData();
  const title = edit.title.trim();
  const description = edit.description.trim();
  if (title !== video.title) form.append('title', title);
  if (description !== video.description) form.append('description', description);
  if (edit.thumbnail) form.append('image', edit.thumbnail);
  return [...form.keys()].length > 0 ? form : null;
}

export const updateVideo = (id: string, form: FormData) => api.patch<VideoResult>(`videos/${id}`, form);
