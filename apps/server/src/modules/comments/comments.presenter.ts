import type { Comment } from '@glimpse/contract';
import type { Storage } from '../../storage/storage.ts';
import { toTakedown } from '../../policy/content-state.ts';
import { toLikeStatus } from '../likes/likes.presenter.ts';
import { toOwner } from '../users/users.presenter.ts';
import type { OwnerRow } from '../users/users.repository.ts';
import type { CommentRow } from './comments.repository.ts';

/** Which video, tweet or live a comment belongs to (exactly one is set, by a CHECK constraint). */
export const entityOf = (c: CommentRow) =>
  c.videoId ? { type: 'video' as const, id: c.videoId } : c.liveId ? { type: 'live' as const, id: c.liveId } : { type: 'tweet' as const, id: c.tweetId! };

export function toComment(storage: Storage, row: { comment: CommentRow; owner: OwnerRow; likeValue: number | null }): Comment {
  const c = row.comment;
  const entity = entityOf(c);
  return {
    _id: c.id,
    content: c.content,
    owner: toOwner(storage, row.owner),
    replies: c.repliesCount,
    likes: c.likes,
    dislikes: c.dislikes,
    likeStatus: toLikeStatus(row.likeValue),
    entityType: entity.type,
    entityId: entity.id,
    parentId: c.parentId,
    state: c.reviewState,
    pinned: c.pinnedAt !== null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    takedown: toTakedown(c),
  };
}
