import type { MailMessage } from './mailer.ts';

interface Recipient {
  email: string;
  fullName: string;
}

/** Links point at the web app's routes, which read the token from the query string. */
export const verificationLink = (publicUrl: string, token: string) =>
  `${publicUrl}/email-verification?token=${encodeURIComponent(token)}`;
export const resetLink = (publicUrl: string, token: string) => `${publicUrl}/password-reset?token=${encodeURIComponent(token)}`;

const hours = (n: number) => `${n} hour${n === 1 ? '' : 's'}`;

function linkMail(to: Recipient, subject: string, intro: string, link: string, outro: string): MailMessage {
  return { to: to.email, subject, link, text: [`Hello ${to.fullName},`, '', intro, '', link, '', outro].join('\n') };
}

export const verificationMail = (to: Recipient, link: string, validHours: number) =>
  linkMail(
    to,
    'Verify your email address',
    'Please verify your email address by opening this link:',
    link,
    `The link is valid for ${hours(validHours)}. If you did not create an account, ignore this mail.`,
  );

export const resetMail = (to: Recipient, link: string, validHours: number) =>
  linkMail(
    to,
    'Reset your password',
    'Someone asked to reset the password of your account. To choose a new password, open this link:',
    link,
    `The link is valid for ${hours(validHours)} and works once. If it was not you, ignore this mail.`,
  );

export const loginLink = (publicUrl: string) => `${publicUrl}/login`;
export const aboutLink = (publicUrl: string) => `${publicUrl}/about`;

/** Registration in approval mode: a moderator let the account in. */
export const registrationApprovedMail = (to: Recipient, instanceName: string, link: string) =>
  linkMail(
    to,
    `Your account on ${instanceName} was approved`,
    `Good news: a moderator approved your account on ${instanceName}. You can log in now:`,
    link,
    'If you have not verified your email address yet, the login asks you to first.',
  );

/** Registration in approval mode: a moderator refused the account, which is removed. */
export const registrationRejectedMail = (to: Recipient, instanceName: string, reason: string, link: string) =>
  linkMail(
    to,
    `Your registration on ${instanceName} was not approved`,
    [`A moderator did not approve your account on ${instanceName}. Their reason:`, '', reason, '', 'Your account was removed. The rules of this instance:'].join('\n'),
    link,
    'You may register again with the same email address later.',
  );

/** Sent once an account is deleted (by its owner or an admin): the address is the last thing we knew of it. */
export const accountDeletedMail = (to: Recipient, publicUrl: string, byAdmin: boolean): MailMessage => ({
  to: to.email,
  subject: 'Your account was deleted',
  link: publicUrl,
  text: [
    `Hello ${to.fullName},`,
    '',
    byAdmin ? 'An administrator deleted your account.' : 'Your account was deleted, as you asked.',
    'Your videos, posts, comments, playlists, history and likes are removed, and every session is signed out.',
    '',
    publicUrl,
  ].join('\n'),
});

// --- moderation (ADR 012): each mail names the item and links to where its owner or reporter can see it ---

function noticeMail(to: Recipient, subject: string, lines: string[], link: string): MailMessage {
  return { to: to.email, subject, link, text: [`Hello ${to.fullName},`, '', ...lines, '', link].join('\n') };
}

/** What a mail calls the item: `your video "Title"`. */
export interface ItemName {
  kind: 'video' | 'comment' | 'tweet' | 'channel';
  label: string | null;
}
const named = (item: ItemName) => (item.label ? `${item.kind} "${item.label}"` : item.kind);

export const reportOutcomeMail = (to: Recipient, item: ItemName, outcome: 'dismissed' | 'actioned', link: string) =>
  noticeMail(
    to,
    'Your report was reviewed',
    [
      `The moderators reviewed your report of the ${named(item)}.`,
      outcome === 'actioned'
        ? 'They took action. Thank you for helping keep this place safe.'
        : 'They found it does not break the rules, so it stays up.',
      'You can follow your reports under "My reports":',
    ],
    link,
  );

export const takedownMail = (to: Recipient, item: ItemName, reason: string, link: string) =>
  noticeMail(
    to,
    `Your ${item.kind} was removed by the moderators`,
    [
      `Your ${named(item)} was removed by the moderators: ${reason}`,
      'Only you and the moderators can see it now.',
      'If you think this is a mistake, you can appeal once, with a short text, from this page:',
    ],
    link,
  );

export const restoredMail = (to: Recipient, item: ItemName, link: string) =>
  noticeMail(to, `Your ${item.kind} was restored`, [`The moderators restored your ${named(item)}: everyone can see it again.`], link);

export const appealClosedMail = (to: Recipient, item: ItemName, link: string) =>
  noticeMail(to, 'Your appeal was reviewed', [`The moderators read your appeal about your ${named(item)} and kept it removed.`], link);

export const deletedMail = (to: Recipient, item: ItemName, reason: string, link: string) =>
  noticeMail(
    to,
    `Your ${item.kind} was deleted by the moderators`,
    [`The moderators deleted your ${named(item)}${reason ? `: ${reason}` : '.'}`],
    link,
  );

export const suspendedMail = (to: Recipient, reason: string, until: Date | null, link: string) =>
  noticeMail(
    to,
    'Your account was suspended',
    [
      `The moderators suspended your account: ${reason}`,
      until ? `The suspension ends on ${until.toISOString().slice(0, 10)}.` : 'The suspension lasts until a moderator lifts it.',
      'While it lasts you cannot log in, and your channel and content are hidden.',
    ],
    link,
  );

export const unsuspendedMail = (to: Recipient, link: string) =>
  noticeMail(to, 'Your account is active again', ['The moderators lifted the suspension of your account. You can log in again.'], link);
