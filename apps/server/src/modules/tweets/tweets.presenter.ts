import type { Tweet } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import { toTakedown } from '../../policy/content-state.ts';
import { toLikeStatus } from '../likes/likes.presenter.ts';
import { imageRef, toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { TweetRow } from './tweets.repository.ts';

export function toTweet(storage: Storage, row: { tweet: TweetRow; owner: OwnerRow; likeValue: number | null }): Tweet {
  const t = row.tweet;
  return {
    _id: t.id,
    content: t.content,
    image: imageRef(storage, t.imageKey),
    likes: t.likes,
    dislikes: t.dislikes,
    comments: t.commentsCount,
    likeStatus: toLikeStatus(row.likeValue),
    owner: toOwner(storage, row.owner),
    state: t.reviewState,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    takedown: toTakedown(t),
  };
}
