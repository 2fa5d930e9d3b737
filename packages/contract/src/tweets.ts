import { z } from 'zod';
import { id, imageRef } from './common.ts';
import { likeStatus } from './likes.ts';
import { owner } from './users.ts';

export const TWEET_MAX = 1000;

export const tweetMessages = {
  loginRequired: 'Please login to post a tweet',
  contentRequired: 'Tweet content is required',
  updated: 'Tweet updated successfully',
  deleted: 'Tweet deleted successfully',
  notFound: 'Tweet not found',
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
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tweet = z.infer<typeof tweet>;

/** DELETE tweets/{id}: the comments removed with the tweet. */
export const deleteTweetResult = z.object({ _id: z.string(), deletedCount: z.number().int() });
