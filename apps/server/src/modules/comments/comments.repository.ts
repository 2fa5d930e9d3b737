import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { CommentEntityType, ReviewState } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';
import { comments, likes, lives, tweets, users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { viewerLikeOn } from '../likes/likes.repository.ts';
import { commentShownTo, liveVisibility, tweetShownTo, videoVisibleTo } from '../../policy/visibility.ts';
import { ownerColumns } from '../users/users.repository.ts';

export type CommentRow = typeof comments.$inferSelect;

/** The NOTIFY channel of live chat: its payload is the live's id. */
export const LIVE_CHAT_CHANNEL = 'live_chat';

const entityColumn = { video: comments.videoId, tweet: comments.tweetId, live: comments.liveId } as const;
/** Live chat keeps no count (nothing shows one). */
const entityTable = { video: videos, tweet: tweets } as const;

export interface CommentEntity {
  id: string;
  ownerId: string;
  /** Whether the viewer may see it (videos per the publication rule, tweets per their review state). */
  visible: boolean;
  /** Always true for tweets. */
  commentsEnabled: boolean;
}

export class CommentsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Finds the video or tweet a comment hangs on, optionally locking its row. Every comment write
   * locks the entity row first, so writes on one thread never deadlock and its counter stays exact.
   */
  async findEntity(type: CommentEntityType, id: string, viewerId: string | null, lock: boolean): Promise<CommentEntity | undefined> {
    const query =
      type === 'video'
        ? this.db
            .select({ id: videos.id, ownerId: videos.ownerId, visible: sql<boolean>`${videoVisibleTo(viewerId)}`, commentsEnabled: videos.commentsEnabled })
            .from(videos)
            .where(eq(videos.id, id))
            .$dynamic()
        : type === 'live'
          ? this.db
              .select({ id: lives.id, ownerId: lives.ownerId, visible: sql<boolean>`${liveVisibility(viewerId)}`, commentsEnabled: sql<boolean>`true` })
              .from(lives)
              .where(eq(lives.id, id))
              .$dynamic()
          : this.db
            .select({ id: tweets.id, ownerId: tweets.ownerId, visible: sql<boolean>`${tweetShownTo(viewerId, false) ?? sql`true`}`, commentsEnabled: sql<boolean>`true` })
            .from(tweets)
            .where(eq(tweets.id, id))
            .$dynamic();
    const [row] = await (lock ? query.for('no key update') : query);
    return row;
  }

  /** Moves the entity's comments_count (every published comment in its threads). */
  async bumpEntityCount(type: CommentEntityType, id: string, delta: number): Promise<void> {
    if (delta === 0 || type === 'live') return;
    await queryRows(this.db, sql`UPDATE ${entityTable[type]} SET comments_count = comments_count + ${delta} WHERE id = ${id}`);
  }

  /** Tells every API process that a live's chat has a new comment (delivered when the transaction commits). */
  async announceLiveComment(liveId: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_notify(${LIVE_CHAT_CHANNEL}, ${liveId})`);
  }

  /** Moves a comment's count of published direct replies. */
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

  /** New content and the review state it earns; a comment that becomes held is no longer pinned. */
  async updateContent(id: string, content: string, reviewState: ReviewState): Promise<void> {
    await this.db
      .update(comments)
      .set({ content, reviewState, updatedAt: new Date(), ...(reviewState === 'held' ? { pinnedAt: null } : {}) })
      .where(eq(comments.id, id));
  }

  async publish(id: string): Promise<void> {
    await this.db.update(comments).set({ reviewState: 'published' }).where(eq(comments.id, id));
  }

  /** Pins the comment and unpins the video's previous one (a unique partial index keeps it to one). */
  async pin(videoId: string, id: string): Promise<void> {
    await this.db
      .update(comments)
      .set({ pinnedAt: null })
      .where(and(eq(comments.videoId, videoId), isNotNull(comments.pinnedAt)));
    await this.db.update(comments).set({ pinnedAt: new Date() }).where(eq(comments.id, id));
  }

  async unpin(id: string): Promise<void> {
    await this.db.update(comments).set({ pinnedAt: null }).where(eq(comments.id, id));
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

  /**
   * The first page of a video's top-level comments with its pinned comment (when the viewer is
   * shown it) in one statement: the pinned row first (the one with `pinnedAt`), then the page as
   * `list` gives it. One round trip fewer on the watch page's most read list (ADR 025).
   */
  listWithPinned(videoId: string, viewerId: string | null, reviewer: boolean, w: PageWindow) {
    const pinned = this.selectComments(viewerId)
      .where(and(eq(comments.videoId, videoId), isNotNull(comments.pinnedAt), commentShownTo(viewerId, reviewer)))
      .limit(1);
    return pinned.unionAll(this.list('video', videoId, null, viewerId, reviewer, w));
  }

  /**
   * Top-level comments of an entity (parentId null) or the direct replies of one comment, newest
   * first, as the viewer is shown them. The pinned comment is not among them: it heads the first page.
   */
  list(type: CommentEntityType, entityId: string, parentId: string | null, viewerId: string | null, reviewer: boolean, w: PageWindow) {
    return this.selectComments(viewerId)
      .where(
        and(
          eq(entityColumn[type], entityId),
          parentId ? eq(comments.parentId, parentId) : isNull(comments.parentId),
          isNull(comments.pinnedAt),
          commentShownTo(viewerId, reviewer),
          afterCursor(comments, comments.createdAt, comments.id, w.after),
        ),
      )
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** Held comments on the videos and tweets of one owner (their review queue), newest first. */
  listHeldFor(ownerId: string, w: PageWindow) {
    return this.selectComments(ownerId)
      .leftJoin(videos, eq(videos.id, comments.videoId))
      .leftJoin(tweets, eq(tweets.id, comments.tweetId))
      .leftJoin(lives, eq(lives.id, comments.liveId))
      .where(
        and(
          eq(comments.reviewState, 'held'),
          or(eq(videos.ownerId, ownerId), eq(tweets.ownerId, ownerId), eq(lives.ownerId, ownerId)),
          afterCursor(comments, comments.createdAt, comments.id, w.after),
        ),
      )
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /**
   * Deletes a comment and all its descendants in one statement (their likes cascade); answers how
   * many went and how many of those were published (the ones the counters hold).
   */
  async deleteSubtree(id: string): Promise<{ removed: number; published: number }> {
    const rows = await queryRows<{ review_state: ReviewState }>(
      this.db,
      sql`WITH RECURSIVE subtree AS (
            SELECT id FROM comments WHERE id = ${id}
            UNION ALL
            SELECT c.id FROM comments c JOIN subtree s ON c.parent_id = s.id
          )
          DELETE FROM comments WHERE id IN (SELECT id FROM subtree) RETURNING review_state`,
    );
    return { removed: rows.length, published: rows.filter((r) => r.review_state === 'published').length };
  }
}
