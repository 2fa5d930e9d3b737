import { z } from 'zod';
import { id, pageQuery } from './common.ts';
import { owner } from './users.ts';

/**
 * What a user is told about (ARCHITECTURE §10). Every type is shown in the app; `emailModes` says
 * how it may be mailed. Moderation outcomes are always mailed by the moderation flow itself.
 */
export const notificationTypes = ['newVideo', 'comment', 'reply', 'mention', 'newSubscriber', 'videoProcessed', 'moderation', 'live'] as const;
export const notificationType = z.enum(notificationTypes);
export type NotificationType = z.infer<typeof notificationType>;

/** Mail preference per type: none, one mail per notification, or one mail a day with all of them. */
export const emailModes = ['off', 'instant', 'digest'] as const;
export const emailMode = z.enum(emailModes);
export type EmailMode = z.infer<typeof emailMode>;

/** The types whose mails a user chooses (moderation outcomes are always mailed). */
export const mailableTypes = ['newVideo', 'comment', 'reply', 'mention', 'newSubscriber', 'videoProcessed', 'live'] as const satisfies readonly NotificationType[];
export type MailableType = (typeof mailableTypes)[number];

/** A new account's mail preferences: the personal ones at once, the busy ones as a daily digest. */
export const defaultEmailModes: Record<MailableType, EmailMode> = {
  newVideo: 'digest',
  comment: 'instant',
  reply: 'instant',
  mention: 'instant',
  newSubscriber: 'digest',
  videoProcessed: 'off',
  live: 'instant',
};

/** What the settings page and the mails call each type's mails. */
export const mailableTypeLabels: Record<MailableType, string> = {
  newVideo: 'New videos from my subscriptions',
  comment: 'Comments on my videos and posts',
  reply: 'Replies to my comments',
  mention: 'Mentions',
  newSubscriber: 'New subscribers',
  videoProcessed: 'My video finished processing',
  live: 'Lives starting on my subscriptions',
};

export const mailableType = z.enum(mailableTypes);

/** GET notifications/settings: every mailable type's mode (defaults filled in). */
export const notificationSettings = z.record(mailableType, emailMode);
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** PATCH notifications/settings: some types' modes; an unknown type or mode is refused. */
export const notificationSettingsPatch = z.partialRecord(mailableType, emailMode);
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatch>;

/**
 * What an unsubscribe link turns off: one type's mails, or `digest` (every type mailed as the
 * daily digest: a digest mixes types, and its one-click header must stop that mail).
 */
export type UnsubscribeScope = MailableType | 'digest';

/** The `token` query of POST notifications/unsubscribe and the web page /unsubscribe. */
export const unsubscribeQuery = z.object({ token: z.string().min(1).max(300) });

/**
 * The scope an unsubscribe token names (`v1.<userId>.<scope>.<mac>`), read without checking the
 * signature: the web page says what will stop; the server checks the signature.
 */
export function unsubscribeScopeOf(token: string): UnsubscribeScope | null {
  const scope = token.split('.')[2];
  return scope === 'digest' || (mailableTypes as readonly string[]).includes(scope ?? '') ? (scope as UnsubscribeScope) : null;
}

/** What the unsubscribe page and the mails say will stop. */
export const unsubscribeScopeLabel = (scope: UnsubscribeScope) => (scope === 'digest' ? 'The daily digest of notifications' : mailableTypeLabels[scope]);

export const notificationMessages = {
  loginRequired: 'Please login to see your notifications',
  notFound: 'Notification not found',
  listed: 'Notifications fetched successfully',
  counted: 'Unread notifications counted',
  markedRead: 'Notification marked as read',
  allRead: 'All notifications marked as read',
  settingsFetched: 'Notification settings fetched',
  settingsSaved: 'Notification settings saved',
  unsubscribed: 'You will no longer get these mails',
  badUnsubscribeToken: 'This unsubscribe link is not valid',
} as const;

/** What the notification is about: enough to word it and link to it without another call. */
export const notificationSubject = z.object({
  videoId: z.string().optional(),
  videoTitle: z.string().optional(),
  tweetId: z.string().optional(),
  commentId: z.string().optional(),
  /** The start of the comment or tweet that caused it. */
  excerpt: z.string().optional(),
  /** videoProcessed: whether it is ready or failed; moderation: what happened. */
  outcome: z.string().optional(),
  /** The reason a moderator gave, or why processing failed. */
  reason: z.string().optional(),
  /** live: the live that started and its title. */
  liveId: z.string().optional(),
  liveTitle: z.string().optional(),
});
export type NotificationSubject = z.infer<typeof notificationSubject>;

export const notification = z.object({
  _id: z.string(),
  type: notificationType,
  /** Who caused it (the commenter, the new subscriber, the channel); null for the system and moderators. */
  actor: owner.nullable(),
  subject: notificationSubject,
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notification>;

export const notificationsQuery = pageQuery.extend({
  /** Only the unread ones. */
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;

export const notificationParams = z.object({ id });

export const unreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCount>;

/** Users one comment or tweet may notify by @name: more are ignored (a list of names must not fan out). */
export const MENTIONS_MAX = 10;

/** The distinct user names @mentioned in a text (lower case, as user names are stored), at most MENTIONS_MAX. */
export function parseMentions(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?<![\w@.-])@([a-zA-Z0-9_.-]{1,30})/g)) {
    names.add(m[1]!.toLowerCase().replace(/[.-]+$/, ''));
    if (names.size === MENTIONS_MAX) break;
  }
  names.delete('');
  return [...names];
}
