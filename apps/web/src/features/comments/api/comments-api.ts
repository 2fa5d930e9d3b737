import { api } from '@/lib/api-client.ts';
import { fetchPage } from '@/lib/pagination.ts';
import type { Comment, LikeStatus } from '@/types/api.ts';

export type CommentEntityType = 'video' | 'tweet';

/** Top-level comments of a video or tweet, or the replies to one comment, 10 per page. */
export const fetchComments = (entityType: CommentEntityType, entityId: string, parentId: string | null, cursor: string | null) =>
  fetchPage<Comment>(parentId ? `comments/${entityType}/${entityId}/${parentId}` : `comments/${entityType}/${entityId}`, 'comments', {}, cursor);

export const postComment = (entityType: CommentEntityType, entityId: string, parentId: string | null, content: string) =>
  api.post<Partial<Comment> & { _id: string }>(`comments/${entityType}/${entityId}${parentId ? `/${parentId}` : ''}`, { content }).then((r) => r.data);

export const editComment = (id: string, content: string) => api.patch<unknown>(`comments/${id}`, { content });

export const deleteCommentCall = (id: string) => api.delete<{ deletedCount?: number } | null>(`comments/${id}`).then((r) => r.data?.deletedCount ?? 1);

export const reactToComment = (id: string, action: 'like' | 'dislike') =>
  api.post<{ likes: number; dislikes: number; likeStatus: LikeStatus }>(`likes/comment/${id}/${action}`).then((r) => r.data);
