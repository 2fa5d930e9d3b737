import type { AppContext } from '../../context.ts';
import type { JobHandler } from '../../jobs/worker.ts';
import type { MailMessage } from '../../mail/mailer.ts';

/** Mails of moderation outcomes, queued in the action's transaction (ModerationService). */
export const MODERATION_MAIL_QUEUE = 'moderation-mail';

/** Sends one queued moderation mail: the action never waits on SMTP, and a failing SMTP is retried, not lost. */
export function moderationMailHandler(ctx: AppContext): JobHandler<MailMessage> {
  return {
    run: async (mail) => {
      await ctx.mailer.send(mail);
      return { mailed: true };
    },
    onFailed: async () => {},
  };
}
