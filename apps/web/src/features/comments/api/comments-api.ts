import { api } from '@/lib/api-client.ts';
import { fetchPage } from '@/lib/pagination.ts';
import type { Comment, LikeStatus } from '@/types/api.ts';

export type CommentEntityType = 'video' | 'tweet' | 'live';

/** Top-level comments of a video or tweet, or the replies to one comment, 10 per page. */
export const fetchComments = (entityType: CommentEntityType, entityId: string, parentId: string | null, cursor: string | null) =>
  fetchPage<Comment>(parentId ? `comments/${entityType}/${entityId}/${parentId}` : `comments/${entityType}/${entityId}`, 'comments', {}, cursor);

/** The new comment and the server's words about it (a held comment says it waits for review). */
export const postComment = (entityType: CommentEntityType, entityId: string, parentId: string | null, content: string) =>
  api
    .post<Partial<Comment> & { _id: string }>(`comments/${entityType}/${entityId}${parentId ? `/${parentId}` : ''}`, { content })
    .then((r) => ({ comment: r.data, message: r.message }));

export const editComment = (id: string, content: string) =>
  api.patch<Partial<Comment> | null>(`comments/${id}`, { content }).then((r) => ({ comment: r.data, message: r.message }));

export const deleteCommentCall = (id: string) => api.delete<{ deletedCount?: number } | null>(`comments/${id}`).then((r) => r.data?.deletedCount ?? 1);

export const reactToComment = (id: string, action: 'like' | 'dislike') =>
  api.post<{ likes: number; dislikes: number; likeStatus: LikeStatus }>(`likes/comment/${id}/${action}`).then((r) => r.data);

/** Creator moderation: the owner of the video or tweet approves a held comment. */
export const approveComment = (id: string) => api.post<Comment>(`comments/${id}/approve`).then((r) => r.data);

/** The video's owner pins (or unpins) a top-level comment; pinning another unpins the previous one. */
export const pinComment = (id: string, pinned: boolean) =>
  (pinned ? api.post<Comment>(`comments/${id}/pin`) : api.delete<Comment>(`comments/${id}/pin`)).then((r) => r.data);

/** Blocks a user from commenting on the caller's videos and tweets. */
export const blockFromChannel = (userId: string) => api.post<unknown>('channel-blocks', { userId });

/** Held comments on the caller's videos and tweets (their review queue). */
export const fetchHeldComments = (cursor: string | null) => fetchPage<Comment>('comments/held', 'comments', {}, cursor);
