import { moreRenditionsComing, type Rendition, type TakedownNotice, type VideoPrivacy } from '@glimpse/contract';
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VideoSummary } from '@/components/media/types.ts';
import { api } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';
import { privacyFields, privacyOf, type PrivacyState } from '../components/privacy-choice.tsx';
import type { ChannelStatsResult, Comment, VideoResult } from '@/types/api.ts';
import type { StorageUsage } from '@glimpse/contract';

export interface DashboardVideo extends VideoSummary {
  likes: number;
  dislikes: number;
  status: 'processing' | 'ready' | 'failed';
  progress: number;
  failureReason?: string | null;
  /** Off: nobody can comment on the video and its comments are not shown. */
  commentsEnabled?: boolean;
  /** Set when moderators took the video down (ADR 012). */
  takedown?: TakedownNotice | null;
  privacy?: VideoPrivacy;
  /** The scheduled publication time, while the video waits for it. */
  publishAt?: string | null;
  /** Viewers may download the mp4. */
  downloadsEnabled?: boolean;
  /** The HLS ladder and which rungs play yet (ADR 019). */
  renditions?: Rendition[];
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

/** Polls while any video is still processing (or has rungs to come), so progress and the final state show up by themselves. */
export const useDashboardVideos = () =>
  useQuery({
    queryKey: videosKey,
    queryFn: ({ signal }) => fetchAllVideos(signal),
    refetchInterval: (q) => (q.state.data?.some(moreRenditionsComing) ? POLL_MS : false),
  });

export const useStats = () => useQuery(statsQueryOptions);

/** Bytes stored against the quota; under ['dashboard'], so an upload or a deletion refreshes it. */
export const useStorage = () =>
  useQuery({
    queryKey: ['dashboard', 'storage'],
    queryFn: ({ signal }) => api.get<StorageUsage>('users/me/storage', undefined, signal).then((r) => r.data),
  });

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
  commentsEnabled?: boolean;
  downloadsEnabled?: boolean;
  /** The privacy fields (privacyFields), sent when they differ from the video's. */
  privacy?: Record<string, string>;
}

/**
 * Spec §5: the form of a video edit holds only what changed (trimmed text compared with the
 * current values, a new thumbnail when one was picked), or null when nothing did.
 */
export function editForm(
  video: Pick<DashboardVideo, 'title' | 'description' | 'commentsEnabled' | 'downloadsEnabled' | 'isPublished' | 'privacy' | 'publishAt'>,
  edit: VideoEdit,
): FormData | null {
  const form = new FormData();
  const title = edit.title.trim();
  const description = edit.description.trim();
  if (title !== video.title) form.append('title', title);
  if (description !== video.description) form.append('description', description);
  if (edit.commentsEnabled !== undefined && edit.commentsEnabled !== (video.commentsEnabled ?? true)) form.append('commentsEnabled', String(edit.commentsEnabled));
  if (edit.downloadsEnabled !== undefined && edit.downloadsEnabled !== (video.downloadsEnabled ?? false)) form.append('downloadsEnabled', String(edit.downloadsEnabled));
  if (edit.privacy && !samePrivacy(video, edit.privacy)) for (const [k, v] of Object.entries(edit.privacy)) form.append(k, v);
  if (edit.thumbnail) form.append('image', edit.thumbnail);
  return [...form.keys()].length > 0 ? form : null;
}

/** Whether the privacy fields ask for what the video already is (both as the dialog shows them). */
function samePrivacy(video: PrivacyState, fields: Record<string, string>): boolean {
  return JSON.stringify(privacyFields(privacyOf(video))) === JSON.stringify(fields);
}

export const updateVideo = (id: string, form: FormData) => api.patch<VideoResult>(`videos/${id}`, form);

/** Held comments on the caller's videos and tweets (a watched word): their review queue. */
export const heldCommentsKey = ['dashboard', 'held-comments'] as const;
export const useHeldComments = () =>
  useInfiniteQuery({
    queryKey: heldCommentsKey,
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) => fetchPage<Comment>('comments/held', 'comments', {}, pageParam, signal),
  });

/** Approve (publish) or delete a held comment; the queue and the stats follow. */
export function useReviewComment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'approve' | 'delete' }) =>
      action === 'approve' ? api.post<unknown>(`comments/${id}/approve`) : api.delete<unknown>(`comments/${id}`),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: heldCommentsKey }), qc.invalidateQueries({ queryKey: statsQueryOptions.queryKey })]),
  });
}
