import { FEED_ITEMS } from '@glimpse/contract';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { feedTokens, subscriptions, users, videos } from '../../db/schema.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';
import { videoCardColumns, type VideoCardRow } from '../videos/video-cards.repository.ts';
import { videoListedTo } from '../../policy/visibility.ts';

const publishedAt = sql<Date>`COALESCE(${videos.announcedAt}, ${videos.createdAt})`.mapWith(videos.createdAt);

export type FeedVideoRow = VideoCardRow & { publishedAt: Date };

export class FeedsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The most recently published videos that may appear in a public list (the one visibility rule,
   * for a visitor: a feed is public, whoever asks for it), matching `where`, each with its owner.
   * Published is when the video was first listed (a scheduled one: its publication, not its
   * upload); a listed video that never was announced (restored from a take-down before it was)
   * counts from its upload.
   */
  private latest(where: SQL): Promise<FeedVideoRow[]> {
    return this.db
      .select({ ...videoCardColumns, publishedAt })
      .from(videos)
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(and(where, videoListedTo(null)))
      .orderBy(desc(publishedAt), desc(videos.id))
      .limit(FEED_ITEMS);
  }

  channelVideos(ownerId: string): Promise<FeedVideoRow[]> {
    return this.latest(eq(videos.ownerId, ownerId));
  }

  subscriptionVideos(subscriberId: string): Promise<FeedVideoRow[]> {
    const channels = this.db.select({ id: subscriptions.channelId }).from(subscriptions).where(eq(subscriptions.subscriberId, subscriberId));
    return this.latest(inArray(videos.ownerId, channels));
  }

  /** Sets the user's token (replacing any older one); answers when it was made. */
  async putToken(userId: string, tokenHash: string): Promise<Date> {
    const [row] = await this.db
      .insert(feedTokens)
      .values({ userId, tokenHash })
      .onConflictDoUpdate({ target: feedTokens.userId, set: { tokenHash, createdAt: sql`now()` } })
      .returning({ createdAt: feedTokens.createdAt });
    return row!.createdAt;
  }

  async tokenCreatedAt(userId: string): Promise<Date | undefined> {
    const [row] = await this.db.select({ createdAt: feedTokens.createdAt }).from(feedTokens).where(eq(feedTokens.userId, userId));
    return row?.createdAt;
  }

  /** True when there was a token to delete. */
  async deleteToken(userId: string): Promise<boolean> {
    const rows = await this.db.delete(feedTokens).where(eq(feedTokens.userId, userId)).returning({ userId: feedTokens.userId });
    return rows.length > 0;
  }

  /** The user whose token has this hash, unless their account is suspended (hidden like their channel). */
  async ownerOfToken(tokenHash: string): Promise<{ id: string; userName: string; fullName: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, userName: users.userName, fullName: users.fullName })
      .from(feedTokens)
      .innerJoin(users, eq(users.id, feedTokens.userId))
      .where(and(eq(feedTokens.tokenHash, tokenHash), accountVisibleTo(users.id, null)))
      .limit(1);
    return row;
  }
}
