// Zod-free: the player reports with these, and the watch page's first load carries no zod (ADR 017).

/** Where a view came from: the page that led to the watch page (or the embed, or another site). */
export const trafficSources = ['home', 'search', 'subscriptions', 'channel', 'playlist', 'embed', 'external', 'direct'] as const;
export type TrafficSource = (typeof trafficSources)[number];

/** How often the player reports while playing, and the most positions one report may carry. */
export const HEARTBEAT_INTERVAL_S = 5;
export const HEARTBEAT_MAX_POSITIONS = 120;
