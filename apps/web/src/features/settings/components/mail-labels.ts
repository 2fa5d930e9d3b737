import type { MailableType, UnsubscribeScope } from '@glimpse/contract';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

// The contract's English labels stay for the mails the server sends; the pages show the catalogue's.
const mailTypeKeys: Record<MailableType, MessageKey> = {
  newVideo: 'settings.mailNewVideo',
  comment: 'settings.mailComment',
  reply: 'settings.mailReply',
  mention: 'settings.mailMention',
  newSubscriber: 'settings.mailNewSubscriber',
  videoProcessed: 'settings.mailVideoProcessed',
  live: 'settings.mailLive',
};

export const mailTypeLabel = (type: MailableType) => t(mailTypeKeys[type]);
/** Which mails an unsubscribe link stops: one type, or the daily digest. */
export const scopeLabel = (scope: UnsubscribeScope) => (scope === 'digest' ? t('settings.mailScopeDigest') : mailTypeLabel(scope));
