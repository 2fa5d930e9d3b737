import { z } from 'zod';
import { id, pageQuery, reviewState } from './common.ts';
import { takedownNotice } from './moderation.ts';
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
  added: 'Comment added successfully',
  held: 'Your comment is held for review by the channel owner',
  heldParent: 'You can reply once this comment is published',
  turnedOff: 'Comments are turned off for this video',
  blocked: 'You cannot comment on this channel',
  notOwner: 'You can only change your own comments',
  notRemovable: 'You can only delete your own comments or comments on your videos and tweets',
  reviewerOnly: 'Only the owner of the video or tweet can review its comments',
  notHeld: 'This comment is not held for review',
  approved: 'Comment approved',
  pinOwnerOnly: 'Only the owner of the video can pin its comments',
  pinTopLevel: 'Only a published top-level comment on a video can be pinned',
  pinned: 'Comment pinned',
  unpinned: 'Comment unpinned',
  heldFetched: 'Held comments fetched successfully',
} as const;

export const commentEntityType = z.enum(['video', 'tweet', 'live'], { message: "entityType must be 'video', 'tweet' or 'live'" });
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
/** GET comments/video/{videoId}, comments/tweet/{tweetId} and comments/live/{liveId} (live chat). */
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
  /** `held`: shown only to its author and its reviewer (the video's or tweet's owner). */
  state: reviewState,
  /** Pinned by the video's owner: first in the list. */
  pinned: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Only on its owner's own view of a taken-down item: the moderators' notice (ADR 012). */
  takedown: takedownNotice.nullable().optional(),
});
export type Comment = z.infer<typeof comment>;

/** DELETE comments/{id}: the comment plus all its descendants. */
export const deleteCommentResult = z.object({ _id: z.string(), deletedCount: z.number().int() });
