import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { CommentEntityType } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { comments, likes, tweets, users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { viewerLikeOn } from '../likes/likes.repository.ts';
import { ownerColumns } from '../users/users.repository.ts';
import { videoVisibleTo } from '../videos/video-cards.repository.ts';

export type CommentRow = typeof comments.$inferSelect;

const entityColumn = { video: comments.videoId, tweet: comments.tweetId } as const;
const entityTable = { video: videos, tweet: tweets } as const;

export class CommentsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Finds the video or tweet a comment hangs on, optionally locking its row. Every comment write
   * locks the entity row first, so writes on one thread never deadlock and its counter stays exact.
   * `visible`: whether the viewer may see it (tweets always; videos per the publication rule).
   */
  async findEntity(type: CommentEntityType, id: string, viewerId: string | null, lock: boolean) {
    const query =
      type === 'video'
        ? this.db
            .select({ id: videos.id, visible: sql<boolean>`${videoVisibleTo(viewerId)}` })
            .from(videos)
            .where(eq(videos.id, id))
            .$dynamic()
        : this.db
            .select({ id: tweets.id, visible: sql<boolean>`true` })
            .from(tweets)
            .where(eq(tweets.id, id))
            .$dynamic();
    const [row] = await (lock ? query.for('no key update') : query);
    return row;
  }

  /** Moves the entity's comments_count (every comment in its threads). */
  async bumpEntityCount(type: CommentEntityType, id: string, delta: number): Promise<void> {
    await queryRows(this.db, sql`UPDATE ${entityTable[type]} SET comments_count = comments_count + ${delta} WHERE id = ${id}`);
  }

  async bumpReplies(parentId: string, delta: number): Promise<void> {
    await this.db
      .update(comments)
      .set({ repliesCount: sql`${comments.repliesCount} + ${delta}` })
      .where(eq(comments.id, parentId));
  }

  async findById(id: string): Promise<CommentRow | undefined> {
    const [row] = await this.db.select().from(comments).where(eq(comments.id, id)).limit(1);
    return row;
  }

  async insert(row: typeof comments.$inferInsert): Promise<void> {
    await this.db.insert(comments).values(row);
  }

  async updateContent(id: string, content: string): Promise<void> {
    await this.db.update(comments).set({ content, updatedAt: new Date() }).where(eq(comments.id, id));
  }

  /** Comments with their owner and the viewer's reaction. */
  private selectComments(viewerId: string | null) {
    return this.db
      .select({ comment: comments, owner: ownerColumns, likeValue: likes.value })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.ownerId))
      .leftJoin(likes, viewerLikeOn('comment', comments.id, viewerId))
      .$dynamic();
  }

  async findView(id: string, viewerId: string | null) {
    const [row] = await this.selectComments(viewerId).where(eq(comments.id, id)).limit(1);
    return row;
  }

  /** Top-level comments of an entity (parentId null) or the direct replies of one comment, newest first. */
  list(type: CommentEntityType, entityId: string, parentId: string | null, viewerId: string | null, w: PageWindow) {
    return this.selectComments(viewerId)
      .where(
        and(
          eq(entityColumn[type], entityId),
          parentId ? eq(comments.parentId, parentId) : isNull(comments.parentId),
          afterCursor(comments, comments.createdAt, comments.id, w.after),
        ),
      )
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** Deletes a comment and all its descendants in one statement (their likes cascade); answers how many. */
  async deleteSubtree(id: string): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`WITH RECURSIVE subtree AS (
            SELECT id FROM comments WHERE id = ${id}
            UNION ALL
            SELECT c.id FROM comments c JOIN subtree s ON c.parent_id = s.id
          )
          DELETE FROM comments WHERE id IN (SELECT id FROM subtree) RETURNING id`,
    );
    return rows.length;
  }
}
