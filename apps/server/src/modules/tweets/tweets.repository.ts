import { and, desc, eq } from 'drizzle-orm';
import type { ReviewState } from '@glimpse/contract';
import type { Executor } from '../../db/client.ts';
import { comments, likes, tweets, users } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { viewerLikeOn } from '../likes/likes.repository.ts';
import { tweetShownTo } from '../../policy/visibility.ts';
import { ownerColumns } from '../users/users.repository.ts';

export type TweetRow = typeof tweets.$inferSelect;

export class TweetsRepository {
  constructor(private readonly db: Executor) {}

  /** Tweets with their owner and the viewer's reaction. */
  private selectTweets(viewerId: string | null) {
    return this.db
      .select({ tweet: tweets, owner: ownerColumns, likeValue: likes.value })
      .from(tweets)
      .innerJoin(users, eq(users.id, tweets.ownerId))
      .leftJoin(likes, viewerLikeOn('tweet', tweets.id, viewerId))
      .$dynamic();
  }

  async findView(id: string, viewerId: string | null, staff: boolean) {
    const [row] = await this.selectTweets(viewerId)
      .where(and(eq(tweets.id, id), tweetShownTo(viewerId, staff)))
      .limit(1);
    return row;
  }

  listByOwner(ownerId: string, viewerId: string | null, staff: boolean, w: PageWindow) {
    return this.selectTweets(viewerId)
      .where(and(eq(tweets.ownerId, ownerId), tweetShownTo(viewerId, staff), afterCursor(tweets, tweets.createdAt, tweets.id, w.after)))
      .orderBy(desc(tweets.createdAt), desc(tweets.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** The moderators' queue: held tweets, newest first. */
  listHeld(viewerId: string, w: PageWindow) {
    return this.selectTweets(viewerId)
      .where(and(eq(tweets.reviewState, 'held'), afterCursor(tweets, tweets.createdAt, tweets.id, w.after)))
      .orderBy(desc(tweets.createdAt), desc(tweets.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  async findById(id: string): Promise<TweetRow | undefined> {
    const [row] = await this.db.select().from(tweets).where(eq(tweets.id, id)).limit(1);
    return row;
  }

  async insert(row: typeof tweets.$inferInsert): Promise<void> {
    await this.db.insert(tweets).values(row);
  }

  async update(id: string, set: { content?: string; imageKey?: string; reviewState?: ReviewState }): Promise<void> {
    await this.db
      .update(tweets)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(tweets.id, id));
  }

  /** Deletes the tweet and its comments (likes go with them); answers how many comments went. */
  async deleteWithComments(id: string): Promise<number> {
    const removed = await this.db.delete(comments).where(eq(comments.tweetId, id)).returning({ id: comments.id });
    await this.db.delete(tweets).where(eq(tweets.id, id));
    return removed.length;
  }

  /** Locks the tweet row so deleting it waits for comment writes in flight. */
  async lock(id: string): Promise<TweetRow | undefined> {
    const [row] = await this.db.select().from(tweets).where(eq(tweets.id, id)).for('no key update');
    return row;
  }
}
