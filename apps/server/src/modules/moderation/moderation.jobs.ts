import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { MODERATION_MAIL_QUEUE, moderationMailHandler } from './moderation-mail.job.ts';

export const moderationJobs = (ctx: AppContext): JobModule => ({
  handlers: { [MODERATION_MAIL_QUEUE]: moderationMailHandler(ctx) },
});
