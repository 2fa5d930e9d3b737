import { subscriptionMessages, type PageQuery, type SubscribedChannel, type ToggleSubscriptionResult } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { imageRef } from '../users/users.presenter.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { mediaUrls } from '../media-access/media-links.ts';
import { toVideoCard } from '../videos/videos.presenter.ts';
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
      const subscriberCount = await repo.bumpSubscribers(channelId, isSubscribed ? 1 : -1);
      return { isSubscribed, subscriberCount };
    });
  }

  async feed(viewerId: string, q: PageQuery) {
    const rows = await this.subscriptions.feed(viewerId, pageWindow(q));
    return pageOf(
      'subscriptions',
      rows.map((r) => toVideoCard(mediaUrls(this.ctx), r)),
      q,
      (v) => v._id,
    );
  }

  async subscribedChannels(channelId: string, q: PageQuery) {
    if (!(await new UsersRepository(this.ctx.db).findById(channelId))) throw notFound(subscriptionMessages.channelNotFound);
    const rows = await this.subscriptions.subscribedChannels(channelId, pageWindow(q));
    const items: SubscribedChannel[] = rows.map((r) => ({
      channel: {
        _id: r.id,
        userName: r.userName,
        fullName: r.fullName,
        avatar: imageRef(this.ctx.storage, r.avatarKey),
        subscriberCount: r.subscriberCount,
      },
      subscribedAt: r.subscribedAt.toISOString(),
    }));
    return pageOf('subscribedChannels', items, q, (i) => i.channel._id);
  }
}
