import { z } from 'zod';
import { id, imageRef, pageQuery } from './common.ts';
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

export const toggleSubscriptionResult = z.object({ isSubscribed: z.boolean(), subscriberCount: z.number().int() });
export type ToggleSubscriptionResult = z.infer<typeof toggleSubscriptionResult>;

/** One entry of `data.subscribedChannels`: a channel the given channel subscribes to. */
export const subscribedChannel = z.object({
  channel: z.object({
    _id: z.string(),
    userName: z.string(),
    fullName: z.string(),
    avatar: imageRef,
    subscriberCount: z.number().int(),
  }),
  subscribedAt: z.string(),
});
export type SubscribedChannel = z.infer<typeof subscribedChannel>;

/**
 * GET subscriptions is the viewer's feed: `data.subscriptions` holds videos from subscribed
 * channels (spec §3 names the list field `subscriptions`), newest first, with the usual page fields.
 */
export const subscriptionFeedItem = videoCard;
