import { z } from 'zod';

/**
 * RSS 2.0 and Atom feeds (issue #14): a channel's latest public videos, and a private feed of the
 * videos of the channels a user subscribes to, reached through a secret token in its URL.
 */

/** How many videos a feed carries (the newest). */
export const FEED_ITEMS = 50;

export const feedFormats = ['rss', 'atom'] as const;
export type FeedFormat = (typeof feedFormats)[number];

export const feedQuery = z.object({ format: z.enum(feedFormats, { message: 'format must be rss or atom' }).default('rss') });

/** Any text: a token that names no feed is a 404, like one that was revoked. */
export const feedTokenParams = z.object({ token: z.string().min(1).max(64) });

export const feedMessages = {
  channelNotFound: 'Channel not found',
  feedNotFound: 'Feed not found',
  loginRequired: 'Please login to manage your private feed',
  noToken: 'You have no private feed',
  created: 'Private feed created',
  revoked: 'Private feed revoked',
  fetched: 'Private feed fetched',
} as const;

/** Whether the viewer has a private feed, and since when; the token itself is shown only once, at creation. */
export const feedTokenStatus = z.object({ exists: z.boolean(), createdAt: z.string().nullable() });
export type FeedTokenStatus = z.infer<typeof feedTokenStatus>;

/** The new token and the absolute URLs of both formats: the only time the plain token is sent. */
export const feedTokenCreated = z.object({ token: z.string(), rss: z.string(), atom: z.string(), createdAt: z.string() });
export type FeedTokenCreated = z.infer<typeof feedTokenCreated>;

const withFormat = (path: string, format: FeedFormat) => (format === 'rss' ? path : `${path}?format=atom`);

/** Paths under the API base (/api/v1) of the feeds; the server's HTML head and the web app link to these. */
export const feedPaths = {
  channel: (userName: string, format: FeedFormat = 'rss') => withFormat(`/feeds/channels/${encodeURIComponent(userName.replace(/^@/, ''))}`, format),
  subscriptions: (token: string, format: FeedFormat = 'rss') => withFormat(`/feeds/subscriptions/${encodeURIComponent(token)}`, format),
  token: '/feeds/token',
} as const;
