import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { channelBlocks, users } from '../../db/schema.ts';
import type { PageWindow } from '../../lib/keyset.ts';
import { ownerColumns } from '../users/users.repository.ts';

/** Users a channel blocked from commenting on its videos and tweets. */
export class ChannelBlocksRepository {
  constructor(private readonly db: Executor) {}

  async isBlocked(channelId: string, userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: channelBlocks.userId })
      .from(channelBlocks)
      .where(and(eq(channelBlocks.channelId, channelId), eq(channelBlocks.userId, userId)))
      .limit(1);
    return row !== undefined;
  }

  /** Blocking twice is the same as once. */
  async insert(channelId: string, userId: string): Promise<void> {
    await this.db.insert(channelBlocks).values({ channelId, userId }).onConflictDoNothing();
  }

  async delete(channelId: string, userId: string): Promise<boolean> {
    const removed = await this.db
      .delete(channelBlocks)
      .where(and(eq(channelBlocks.channelId, channelId), eq(channelBlocks.userId, userId)))
      .returning({ userId: channelBlocks.userId });
    return removed.length > 0;
  }

  /** The channel's blocked users, newest block first (keyset on the blocked user's id). */
  list(channelId: string, w: PageWindow) {
    const after = w.after
      ? sql`(${channelBlocks.createdAt}, ${channelBlocks.userId}) < (SELECT created_at, user_id FROM channel_blocks WHERE channel_id = ${channelId} AND user_id = ${w.after})`
      : undefined;
    return this.db
      .select({ owner: ownerColumns, blockedAt: channelBlocks.createdAt })
      .from(channelBlocks)
      .innerJoin(users, eq(users.id, channelBlocks.userId))
      .where(and(eq(channelBlocks.channelId, channelId), after))
      .orderBy(desc(channelBlocks.createdAt), desc(channelBlocks.userId))
      .limit(w.limit + 1)
      .offset(w.offset);
  }
}
