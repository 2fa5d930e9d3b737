import type { AppContext } from '../../context.ts';
import type { JobModule } from '../../jobs/worker.ts';
import { NOTIFICATION_MAIL_QUEUE, notificationMailHandler, scheduleNotificationMail } from './notification-mail.job.ts';

/** Notification mails: the sending job, and the runs that come due (digests) at each maintenance. */
export const notificationsJobs = (ctx: AppContext): JobModule => ({
  handlers: { [NOTIFICATION_MAIL_QUEUE]: notificationMailHandler(ctx) },
  maintenance: async () => {
    await scheduleNotificationMail(ctx);
  },
});
