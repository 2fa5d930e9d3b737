import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriptions, users, videos } from '../../db/schema.ts';
import { afterCursor, type PageWindow } from '../../lib/keyset.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';
import { channelColumns } from '../users/channels.repository.ts';
import { videoCardColumns } from '../videos/video-cards.repository.ts';
import { videoListedTo } from '../../policy/visibility.ts';

export class SubscriptionsRepository {
  constructor(private readonly db: Executor) {}

  /** Locks the channel row (its subscriber_count changes in this transaction); false when unknown. */
  async lockChannel(channelId: string): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, channelId)).for('no key update');
    return rows.length > 0;
  }

  /** True when a new row was added (false: it already existed). */
  async insert(subscriberId: string, channelId: string): Promise<boolean> {
    const rows = await this.db
      .insert(subscriptions)
      .values({ subscriberId, channelId })
      .onConflictDoNothing()
      .returning({ channelId: subscriptions.channelId });
    return rows.length > 0;
  }

  async delete(subscriberId: string, channelId: string): Promise<void> {
    await this.db
      .delete(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.channelId, channelId)));
  }

  /** Appends the change for analytics (subscribers gained and lost per day); see migration 0950. */
  async logChange(channelId: string, delta: 1 | -1): Promise<void> {
    await this.db.execute(sql`INSERT INTO subscription_events (channel_id, delta) VALUES (${channelId}, ${delta})`);
  }

  async bumpSubscribers(channelId: string, delta: number): Promise<number> {
    const [row] = await this.db
      .update(users)
      .set({ subscriberCount: sql`${users.subscriberCount} + ${delta}` })
      .where(eq(users.id, channelId))
      .returning({ subscriberCount: users.subscriberCount });
    return row!.subscriberCount;
  }

  /** Videos of the channels the viewer subscribes to that the viewer may see, newest first, each with its channel. */
  feed(viewerId: string, w: PageWindow) {
    return this.db
      .select({ ...videoCardColumns, channel: channelColumns(viewerId) })
      .from(subscriptions)
      .innerJoin(videos, eq(videos.ownerId, subscriptions.channelId))
      .innerJoin(users, eq(users.id, videos.ownerId))
      .where(
        and(
          eq(subscriptions.subscriberId, viewerId),
          videoListedTo(viewerId),
          afterCursor(videos, videos.createdAt, videos.id, w.after),
        ),
      )
      .orderBy(desc(videos.createdAt), desc(videos.id))
      .limit(w.limit + 1)
      .offset(w.offset);
  }

  /** Channels the given channel subscribes to, most recent subscription first; isSubscribed is the viewer's. */
  subscribedChannels(subscriberId: string, viewerId: string | null, w: PageWindow) {
    return this.db
      .select({ subscribedAt: subscriptions.createdAt, channel: channelColumns(viewerId) })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.channelId))
      .where(
        and(
          eq(subscriptions.subscriberId, subscriberId),
          accountVisibleTo(users.id, viewerId),
          afterCursor(
            subscriptions,
            subscriptions.createdAt,
            subscriptions.channelId,
            w.after,
            eq(subscriptions.subscriberId, subscriberId),
          ),
        ),
      )
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.channelId))
      .limit(w.limit + 1)
      .offset(w.offset);
  }
}
