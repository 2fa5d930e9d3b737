import {
  subscriptionMessages,
  type PageQuery,
  type SubscribedChannel,
  type SubscriptionFeedItem,
  type ToggleSubscriptionResult,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { toChannel } from '../users/users.presenter.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { mediaUrls } from '../media-links/media-links.ts';
import { toVideoCard } from '../videos/videos.presenter.ts';
import { recordEvent } from '../../events/events.ts';
import { SubscriptionsRepository } from './subscriptions.repository.ts';

export class SubscriptionsService {
  private readonly subscriptions: SubscriptionsRepository;

  constructor(private readonly ctx: AppContext) {
    this.subscriptions = new SubscriptionsRepository(ctx.db);
  }

  /** Subscribes, or unsubscribes when already subscribed; the channel's counter moves in the same transaction. */
  toggle(subscriberId: string, channelId: string): Promise<ToggleSubscriptionResult> {
    if (subscriberId === channelId) throw badRequest(subscriptionMessages.self);
    return this.ctx.db.transaction(async (tx) => {
      const repo = new SubscriptionsRepository(tx);
      if (!(await repo.lockChannel(channelId))) throw notFound(subscriptionMessages.channelNotFound);
      const isSubscribed = await repo.insert(subscriberId, channelId);
      if (!isSubscribed) await repo.delete(subscriberId, channelId);
      else await recordEvent(tx, { kind: 'subscribed', actorId: subscriberId, channelId });
      await repo.logChange(channelId, isSubscribed ? 1 : -1);
      const subscriberCount = await repo.bumpSubscribers(channelId, isSubscribed ? 1 : -1);
      return { isSubscribed, subscriberCount, subscribers: subscriberCount, totalSubscribers: subscriberCount };
    });
  }

  async feed(viewerId: string, q: PageQuery) {
    const rows = await this.subscriptions.feed(viewerId, pageWindow(q));
    const media = mediaUrls(this.ctx);
    const items: SubscriptionFeedItem[] = rows.map((r) => ({
      ...toVideoCard(media, r),
      channel: toChannel(this.ctx.storage, r.channel, viewerId),
    }));
    return pageOf('subscriptions', items, q, (v) => v._id);
  }

  /** The channels a channel subscribes to (public); `viewerId` fills isSubscribed (and email, on the viewer's own). */
  async subscribedChannels(channelId: string, viewerId: string | null, q: PageQuery) {
    if (!(await new UsersRepository(this.ctx.db).findById(channelId))) throw notFound(subscriptionMessages.channelNotFound);
    const rows = await this.subscriptions.subscribedChannels(channelId, viewerId, pageWindow(q));
    const items: SubscribedChannel[] = rows.map((r) => ({
      channel: toChannel(this.ctx.storage, r.channel, viewerId),
      subscribedAt: r.subscribedAt.toISOString(),
    }));
    return pageOf('subscribedChannels', items, q, (i) => i.channel._id);
  }
}
