import { z } from 'zod';
import { id, imageRef, reviewState } from './common.ts';
import { takedownNotice } from './moderation.ts';
import { likeStatus } from './likes.ts';
import { owner } from './users.ts';

export const TWEET_MAX = 1000;

export const tweetMessages = {
  loginRequired: 'Please login to post a tweet',
  contentRequired: 'Tweet content is required',
  updated: 'Tweet updated successfully',
  deleted: 'Tweet deleted successfully',
  notFound: 'Tweet not found',
  created: 'Tweet created successfully',
  held: 'Your tweet is held for review by a moderator',
  notHeld: 'This tweet is not held for review',
  approved: 'Tweet approved',
  heldDeleted: 'Held tweet deleted',
  heldFetched: 'Held tweets fetched successfully',
} as const;

/** Multipart field `content`, trimmed; blank is refused. */
export const tweetContent = z
  .string({ message: tweetMessages.contentRequired })
  .trim()
  .min(1, tweetMessages.contentRequired)
  .max(TWEET_MAX, `Tweet must be at most ${TWEET_MAX} characters`);

export const createTweetFields = z.object({ content: tweetContent });
/** PATCH: content and/or a new image; content, when sent, follows the same rule. */
export const updateTweetFields = z.object({ content: tweetContent.optional() });

export const tweetParams = z.object({ tweetId: id, userId: z.string().max(64).optional() });
export const channelTweetsParams = z.object({ channelId: id, userId: z.string().max(64).optional() });

export const tweet = z.object({
  _id: z.string(),
  content: z.string(),
  image: imageRef,
  likes: z.number().int(),
  dislikes: z.number().int(),
  /** Every comment on the tweet, replies included. */
  comments: z.number().int(),
  likeStatus,
  owner,
  /** `held`: shown only to its author and to moderators until approved. */
  state: reviewState,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Only on its owner's own view of a taken-down item: the moderators' notice (ADR 012). */
  takedown: takedownNotice.nullable().optional(),
});
export type Tweet = z.infer<typeof tweet>;

/** DELETE tweets/{id}: the comments removed with the tweet. */
export const deleteTweetResult = z.object({ _id: z.string(), deletedCount: z.number().int() });
