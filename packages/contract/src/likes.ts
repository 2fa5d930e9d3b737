import { z } from 'zod';
import { id } from './common.ts';
import { videoCard } from './video-card.ts';

export const likeMessages = { loginRequired: 'Please login to like/dislike' } as const;

/** What can be liked or disliked. */
export const likeEntityType = z.enum(['video', 'tweet', 'comment'], {
  message: "entityType must be one of 'video', 'tweet' or 'comment'",
});
export type LikeEntityType = z.infer<typeof likeEntityType>;

export const likeParams = z.object({ entityType: likeEntityType, entityId: id });

/** 1 liked, -1 disliked, 0 neither. */
export const likeStatus = z.union([z.literal(1), z.literal(-1), z.literal(0)]);
export type LikeStatus = z.infer<typeof likeStatus>;

/** Answer of POST likes/{entityType}/{entityId}/like|dislike. */
export const likeResult = z.object({ likes: z.number().int(), dislikes: z.number().int(), likeStatus });
export type LikeResult = z.infer<typeof likeResult>;

/** One entry of GET likes/video (`data.likedVideos`). */
export const likedVideo = z.object({ _id: z.string(), likedAt: z.string(), video: videoCard });
export type LikedVideo = z.infer<typeof likedVideo>;
