import { and, desc, eq, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { LikeEntityType } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { comments, likes, tweets, users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { newId } from '../../lib/ids.ts';
import { videoCardColumns } from '../videos/video-cards.repository.ts';
import { commentLiveVisibleTo, commentShownTo, tweetShownTo, videoListedTo, videoVisibleTo } from '../../policy/visibility.ts';

const likeColumn = { video: likes.videoId, tweet: likes.tweetId, comment: likes.commentId } as const;
const targetTable = { video: videos, tweet: tweets, comment: comments } as const;

/**
 * Join condition for the viewer's own reaction to each listed row (left join `likes`);
 * matches nothing for anonymous viewers.
 */
export function viewerLikeOn(type: LikeEntityType, targetId: AnyColumn, viewerId: string | null): SQL {
  return viewerId ? and(eq(likeColumn[type], targetId), eq(likes.userId, viewerId))! : sql`false`;
}

export class LikesRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Locks the liked row for the rest of the transaction, so concurrent toggles on one entity run
   * one after another and its counters always equal its rows. False when the entity does not
   * exist or the viewer may not see it (a comment is hidden with its video; held content is shown
   * to its author only here).
   */
  async lockTarget(type: LikeEntityType, id: string, viewerId: string): Promise<boolean> {
    let rows: unknown[];
    if (type === 'video') {
      rows = await this.db
        .select({ id: videos.id })
        .from(videos)
        .where(and(eq(videos.id, id), videoVisibleTo(viewerId)))
        .for('no key update');
    } else if (type === 'tweet') {
      rows = await this.db
        .select({ id: tweets.id })
        .from(tweets)
        .where(and(eq(tweets.id, id), tweetShownTo(viewerId, false)))
        .for('no key update');
    } else {
      rows = await this.db
        .select({ id: comments.id })
        .from(comments)
        .leftJoin(videos, eq(videos.id, comments.videoId))
        .where(and(eq(comments.id, id), commentShownTo(viewerId, false), or(isNull(comments.videoId), videoVisibleTo(viewerId)), commentLiveVisibleTo(viewerId)))
        .for('no key update', { of: comments });
    }
    return rows.length > 0;
  }

  async findReaction(userId: string, type: LikeEntityType, id: string): Promise<{ id: string; value: number } | undefined> {
    const [row] = await this.db
      .select({ id: likes.id, value: likes.value })
      .from(likes)
      .where(and(eq(likes.userId, userId), eq(likeColumn[type], id)))
      .limit(1);
    return row;
  }

  async insertReaction(userId: string, type: LikeEntityType, id: string, value: 1 | -1): Promise<void> {
    const target = type === 'video' ? { videoId: id } : type === 'tweet' ? { tweetId: id } : { commentId: id };
    await this.db.insert(likes).values({ id: newId(), userId, value, ...target });
  }

  async setReaction(likeId: string, value: 1 | -1): Promise<void> {
    // A changed reaction counts as new in the liked-videos list.
    await this.db.update(likes).set({ value, createdAt: new Date() }).where(eq(likes.id, likeId));
  }

  async deleteReaction(likeId: string): Promise<void> {
    await this.db.delete(likes).where(eq(likes.id, likeId));
  }

  /** Moves the target's denormalized counters by the given deltas and answers the new values. */
  async bumpCounts(type: LikeEntityType, id: string, likesDelta: number, dislikesDelta: number) {
    const table = targetTable[type];
    const [row] = await queryRows<{ likes: number; dislikes: number }>(
      this.db,
      sql`UPDATE ${table} SET likes = likes + ${likesDelta}, dislikes = dislikes + ${dislikesDelta}
          WHERE id = ${id} RETURNING likes, dislikes`,
    );
    return row!;
  }

  /** The viewer's liked videos that they may still see, most recently liked first. */
  listLikedVideos(userId: string, w: PageWindow) {
    return this.db
      .select({ likeId: likes.id, likedAt: likes.createdAt, ...videoCardColumns })
      .from(likes)
      .innerJoin(videos, eq(videos.id, likes.videoId))
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(
        and(
          eq(likes.userId, userId),
          eq(likes.value, 1),
          videoListedTo(userId),
          afterCursor(likes, likes.createdAt, likes.id, w.after),
        ),
      )
      .orderBy(desc(likes.createdAt), desc(likes.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }
}
