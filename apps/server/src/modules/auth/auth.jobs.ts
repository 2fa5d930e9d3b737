import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { PASSWORD_RESET_MAIL_QUEUE } from './auth.service.ts';
import { passwordResetMailHandler } from './password-reset-mail.job.ts';

export const authJobs = (ctx: AppContext): JobModule => ({
  handlers: { [PASSWORD_RESET_MAIL_QUEUE]: passwordResetMailHandler(ctx) },
});
