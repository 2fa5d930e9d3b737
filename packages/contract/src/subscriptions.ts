import { z } from 'zod';
import { id, pageQuery } from './common.ts';
import { channel } from './users.ts';
import { videoCard } from './video-card.ts';

export const subscriptionMessages = {
  loginRequired: 'Please login to subscribe',
  feedLoginRequired: 'Please login to view your subscriptions',
  self: 'You cannot subscribe to your own channel',
  channelNotFound: 'Channel not found',
} as const;

export const channelIdParams = z.object({ channelId: id });
/** `userId` is accepted for compatibility and ignored. */
export const subscribedChannelsQuery = pageQuery.extend({ userId: z.string().max(64).optional() });

/** The channel's new state, its count under the three names a channel object uses. */
export const toggleSubscriptionResult = channel.pick({ isSubscribed: true, subscriberCount: true, subscribers: true, totalSubscribers: true });
export type ToggleSubscriptionResult = z.infer<typeof toggleSubscriptionResult>;

/** One entry of `data.subscribedChannels`: a channel the given channel subscribes to. */
export const subscribedChannel = z.object({ channel, subscribedAt: z.string() });
export type SubscribedChannel = z.infer<typeof subscribedChannel>;

/**
 * GET subscriptions is the viewer's feed: `data.subscriptions` holds videos from subscribed
 * channels, newest first, with the usual page fields. Each also carries its `channel` (spec §3:
 * "Subscription list item: channel").
 */
export const subscriptionFeedItem = videoCard.extend({ channel });
export type SubscriptionFeedItem = z.infer<typeof subscriptionFeedItem>;
