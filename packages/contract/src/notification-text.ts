import type { Notification } from './notifications.ts';

// No zod here: the web app's top bar (the shell) imports this file alone
// (`@glimpse/contract/notification-text`), which keeps zod out of its entry chunk (ADR 017).

/**
 * A channel's page in the app: its videos tab. The channel's own root is a not-available page
 * (spec §2), so links, feeds, previews and oEmbed all point here.
 */
export const channelVideosPath = (userName: string): string => `/channel/@${userName}/videos`;

/** The app path a notification leads to (mails make it absolute). */
export function notificationPath(n: Pick<Notification, 'type' | 'subject' | 'actor'>): string {
  const s = n.subject;
  if (n.type === 'moderation') return s.videoId ? `/video/${s.videoId}` : s.tweetId ? `/tweet/${s.tweetId}` : '/my-reports';
  if (n.type === 'newSubscriber') return n.actor ? channelVideosPath(n.actor.userName) : '/notifications';
  if (n.type === 'videoProcessed' && s.outcome === 'failed') return '/';
  if (n.type === 'live' && s.liveId) return `/live/${s.liveId}`;
  if (s.videoId) return `/video/${s.videoId}`;
  if (s.tweetId) return `/tweet/${s.tweetId}`;
  return '/notifications';
}

/** One line saying what happened, in the words the app and the mails use. */
export function notificationText(n: Pick<Notification, 'type' | 'subject' | 'actor'>): string {
  const who = n.actor?.fullName ?? 'Someone';
  const s = n.subject;
  const on = s.videoTitle ? `"${s.videoTitle}"` : 'your post';
  switch (n.type) {
    case 'newVideo':
      return `${who} uploaded "${s.videoTitle ?? 'a new video'}"`;
    case 'comment':
      return `${who} commented on ${on}: ${s.excerpt ?? ''}`.trim();
    case 'reply':
      return `${who} replied to your comment: ${s.excerpt ?? ''}`.trim();
    case 'mention':
      return `${who} mentioned you: ${s.excerpt ?? ''}`.trim();
    case 'newSubscriber':
      return `${who} subscribed to your channel`;
    case 'videoProcessed':
      return s.outcome === 'failed'
        ? `"${s.videoTitle ?? 'Your video'}" could not be processed${s.reason ? `: ${s.reason}` : ''}`
        : `"${s.videoTitle ?? 'Your video'}" is ready to watch`;
    case 'live':
      return `${who} is live: "${s.liveTitle ?? 'a live'}"`;
    case 'moderation':
      return `${s.outcome ?? 'A moderation decision about your content'}${s.reason ? `: ${s.reason}` : ''}`;
  }
}
