import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriptions, users, videos } from '../../db/schema.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';
import { videoListedTo } from '../../policy/visibility.ts';

/** A user as a channel object shows them (see toChannel); `email` is sent only to its owner. */
export interface ChannelRow {
  id: string;
  userName: string;
  fullName: string;
  email: string;
  avatarKey: string | null;
  coverKey: string | null;
  subscriberCount: number;
  videoCount: number;
  isSubscribed: boolean;
  createdAt: Date;
}

/**
 * Select list of a channel object over `users`: the public video count and whether viewerId
 * subscribes, as correlated subqueries, so any query that has `users` in scope can embed a channel.
 */
export function channelColumns(viewerId: string | null) {
  const videoCount = sql<number>`(SELECT count(*) FROM ${videos} WHERE ${and(eq(videos.ownerId, users.id), videoListedTo(null))})`;
  const isSubscribed = viewerId
    ? sql<boolean>`EXISTS (SELECT 1 FROM ${subscriptions} WHERE ${and(eq(subscriptions.channelId, users.id), eq(subscriptions.subscriberId, viewerId))})`
    : sql<boolean>`false`;
  return {
    id: users.id,
    userName: users.userName,
    fullName: users.fullName,
    email: users.email,
    avatarKey: users.avatarKey,
    coverKey: users.coverKey,
    subscriberCount: users.subscriberCount,
    videoCount: videoCount.mapWith(Number),
    isSubscribed: isSubscribed.mapWith(Boolean),
    createdAt: users.createdAt,
  };
}

export class ChannelsRepository {
  constructor(private readonly db: Executor) {}

  async findByUserName(userName: string, viewerId: string | null): Promise<ChannelRow | undefined> {
    const [row] = await this.db.select(channelColumns(viewerId)).from(users)
      .where(and(eq(users.userName, userName), accountVisibleTo(users.id, viewerId)))
      .limit(1);
    return row;
  }
}
