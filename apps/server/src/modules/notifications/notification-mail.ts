import {
  mailableTypeLabels,
  notificationPath,
  notificationText,
  unsubscribeScopeLabel,
  type MailableType,
  type Notification,
  type UnsubscribeScope,
} from '@glimpse/contract';
import type { MailMessage } from '../../mail/mailer.ts';

/** What a mail needs of one notification. */
export type MailItem = Pick<Notification, 'type' | 'subject' | 'actor'>;

export interface MailRecipient {
  email: string;
  fullName: string;
}

/** The site's base URL and the unsubscribe token of a scope, for the links of a mail. */
export interface MailLinks {
  publicUrl: string;
  instanceName: string;
  token(scope: UnsubscribeScope): string;
}

/** Items listed in one digest; the rest are a link to the notifications page. */
export const DIGEST_ITEMS_MAX = 50;
const SUBJECT_MAX = 120;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One line: a header cannot hold a line break, and a long subject is cut. */
const subjectLine = (s: string) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line;
};

const itemLink = (links: MailLinks, n: MailItem) => `${links.publicUrl}${notificationPath(n)}`;
/** The web page that asks before it unsubscribes (a GET never does: mail scanners follow links). */
const pageLink = (links: MailLinks, scope: UnsubscribeScope) => `${links.publicUrl}/unsubscribe?token=${encodeURIComponent(links.token(scope))}`;
/** The RFC 8058 one-click address mail clients POST to. */
const oneClickLink = (links: MailLinks, scope: UnsubscribeScope) =>
  `${links.publicUrl}/api/v1/notifications/unsubscribe?token=${encodeURIComponent(links.token(scope))}`;

const unsubscribeHeaders = (links: MailLinks, scope: UnsubscribeScope) => ({
  'List-Unsubscribe': `<${oneClickLink(links, scope)}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/** A plain page: no external images, fonts or styles sheets; every piece of user text escaped. */
function htmlPage(title: string, body: string, footer: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
${body}
</div>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#52525b">${footer}</p>
</body></html>`;
}

const button = (href: string, label: string) =>
  `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:999px">${escapeHtml(label)}</a></p>`;

const offLine = (links: MailLinks, scopes: UnsubscribeScope[]) =>
  scopes.map((scope) => `Turn off "${unsubscribeScopeLabel(scope)}" mails: ${pageLink(links, scope)}`);
const offHtml = (links: MailLinks, scopes: UnsubscribeScope[]) =>
  scopes
    .map((scope) => `<a href="${escapeHtml(pageLink(links, scope))}" style="color:#52525b">Turn off “${escapeHtml(unsubscribeScopeLabel(scope))}” mails</a>`)
    .join('<br>');

/** One notification mailed at once: what happened, a link to it, and how to turn this type off. */
export function instantMail(to: MailRecipient, n: MailItem & { type: MailableType }, links: MailLinks): MailMessage {
  const what = notificationText(n);
  const link = itemLink(links, n);
  const why = `You get this mail because "${mailableTypeLabels[n.type]}" is set to "At once" in your notification settings on ${links.instanceName}.`;
  return {
    to: to.email,
    subject: subjectLine(what),
    link,
    text: [`Hello ${to.fullName},`, '', what, '', link, '', why, ...offLine(links, [n.type])].join('\n'),
    html: htmlPage(
      what,
      `<p>Hello ${escapeHtml(to.fullName)},</p><p style="font-size:16px">${escapeHtml(what)}</p>${button(link, 'Open on ' + links.instanceName)}`,
      `${escapeHtml(why)}<br>${offHtml(links, [n.type])}`,
    ),
    headers: unsubscribeHeaders(links, n.type),
  };
}

/** The daily digest: every pending notification (up to DIGEST_ITEMS_MAX), one line and link each. */
export function digestMail(to: MailRecipient, items: MailItem[], more: number, links: MailLinks): MailMessage {
  const total = items.length + more;
  const subject = `${total} new notification${total === 1 ? '' : 's'} on ${links.instanceName}`;
  const all = `${links.publicUrl}/notifications`;
  const lines = items.map((n) => ({ what: notificationText(n), link: itemLink(links, n) }));
  const why = `You get this daily digest because some notifications are set to "Daily digest" in your notification settings on ${links.instanceName}.`;
  const andMore = more > 0 ? `And ${more} more: ${all}` : `All your notifications: ${all}`;
  return {
    to: to.email,
    subject,
    link: all,
    text: [`Hello ${to.fullName},`, '', `Since the last digest:`, '', ...lines.flatMap((l) => [`- ${l.what}`, `  ${l.link}`]), '', andMore, '', why, ...offLine(links, ['digest'])].join(
      '\n',
    ),
    html: htmlPage(
      subject,
      `<p>Hello ${escapeHtml(to.fullName)},</p><p>Since the last digest:</p><ul style="padding-left:20px">${lines
        .map((l) => `<li style="margin-bottom:8px"><a href="${escapeHtml(l.link)}" style="color:#1d4ed8">${escapeHtml(l.what)}</a></li>`)
        .join('')}</ul>${more > 0 ? `<p>And ${more} more.</p>` : ''}${button(all, 'All notifications')}`,
      `${escapeHtml(why)}<br>${offHtml(links, ['digest'])}`,
    ),
    headers: unsubscribeHeaders(links, 'digest'),
  };
}
