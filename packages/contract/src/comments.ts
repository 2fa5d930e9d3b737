import { z } from 'zod';
import { id, pageQuery } from './common.ts';
import { likeStatus } from './likes.ts';
import { owner } from './users.ts';

export const COMMENT_MAX = 1000;

export const commentMessages = {
  loginRequired: 'Please login to comment',
  contentRequired: 'Comment content is required',
  unchanged: 'Comment content is unchanged',
  /** Spec §7: the comment edit answer reuses the playlist wording. */
  updated: 'Playlist updated successfully',
  deleted: 'Comment deleted successfully',
  notFound: 'Comment not found',
  parentElsewhere: 'The parent comment belongs to another video or tweet',
} as const;

export const commentEntityType = z.enum(['video', 'tweet'], { message: "entityType must be 'video' or 'tweet'" });
export type CommentEntityType = z.infer<typeof commentEntityType>;

export const commentContent = z
  .string({ message: commentMessages.contentRequired })
  .trim()
  .min(1, commentMessages.contentRequired)
  .max(COMMENT_MAX, `Comment must be at most ${COMMENT_MAX} characters`);

export const commentBody = z.object({ content: commentContent });
export type CommentBody = z.infer<typeof commentBody>;

export const createCommentParams = z.object({ entityType: commentEntityType, entityId: id, parentId: id.optional() });
export const repliesParams = z.object({ entityType: commentEntityType, entityId: id, parentCommentId: id });
/** GET comments/video/{videoId} and comments/tweet/{tweetId}. */
export const entityCommentsParams = z.object({ entityId: id });
export const commentIdParams = z.object({ commentId: id });

/** `userId` is accepted for compatibility with the spec's client and ignored: identity comes from the token. */
export const commentsQuery = pageQuery.extend({ userId: z.string().max(64).optional() });

export const comment = z.object({
  _id: z.string(),
  content: z.string(),
  owner,
  /** Direct children only. */
  replies: z.number().int(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  likeStatus,
  entityType: commentEntityType,
  entityId: z.string(),
  parentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comment = z.infer<typeof comment>;

/** DELETE comments/{id}: the comment plus all its descendants. */
export const deleteCommentResult = z.object({ _id: z.string(), deletedCount: z.number().int() });
