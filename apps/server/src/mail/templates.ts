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
