import type { MailableType } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { pace } from '../../jobs/pace.ts';
import type { JobContext, JobHandler } from '../../jobs/worker.ts';
import { DIGEST_ITEMS_MAX, digestMail, instantMail, type MailItem, type MailLinks } from './notification-mail.ts';
import { NotificationMailRepository, type MailRow } from './notification-mail.repository.ts';
import { UnsubscribeTokens } from './unsubscribe-token.ts';

/** The queue of mail runs: each sends whatever is due (instant rows, then digests). */
export const NOTIFICATION_MAIL_QUEUE = 'notification-mail';
/** Rows (or digest users) claimed per statement. */
export const MAIL_BATCH = 50;
/** Mails per run: a run stays short and hands the rest to the next one. */
export const MAILS_PER_RUN = 500;
/** A run that fails (SMTP down) is retried with the worker's backoff; later, maintenance queues a new one. */
const MAIL_ATTEMPTS = 5;

/** Asks for a mail run unless one is waiting (after a fan-out that left instant rows; from maintenance). */
export const requestMailRun = (jobs: JobsRepository) => jobs.enqueueUnlessQueued(NOTIFICATION_MAIL_QUEUE, {}, MAIL_ATTEMPTS);

/**
 * A recipient's address refused by the SMTP server for good (5xx to RCPT TO): that mail is given
 * up so one bad address cannot hold up everyone's. Any other failure (connection, login, 4xx) stops
 * the run and the rows are tried again.
 */
function refusedForGood(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number };
  return e.code === 'EENVELOPE' && typeof e.responseCode === 'number' && e.responseCode >= 500;
}

const itemOf = (r: MailRow): MailItem => ({
  type: r.type,
  subject: r.subject,
  actor: r.actor_id ? { _id: r.actor_id, userName: r.actor_user_name ?? '', fullName: r.actor_full_name ?? '', avatar: null } : null,
});

/**
 * Mails notifications (ARCHITECTURE §10): each row is claimed before it is sent (two workers never
 * mail one row), marked emailed after, and released when SMTP fails, so a failure loses nothing.
 */
export function notificationMailHandler(ctx: AppContext): JobHandler<object> {
  const repo = new NotificationMailRepository(ctx.db);
  const jobs = new JobsRepository(ctx.db);
  const tokens = new UnsubscribeTokens(ctx.config.jwtSecret);
  const linksFor = (base: Omit<MailLinks, 'token'>, userId: string): MailLinks => ({ ...base, token: (scope) => tokens.sign(userId, scope) });

  async function instant(budget: number, job: JobContext, base: Omit<MailLinks, 'token'>): Promise<number> {
    let sent = 0;
    while (sent < budget) {
      const started = performance.now();
      const rows = await repo.claimInstant(Math.min(MAIL_BATCH, budget - sent));
      if (rows.length === 0) break;
      for (const [i, row] of rows.entries()) {
        if (row.mailable) {
          try {
            const mail = instantMail({ email: row.email, fullName: row.full_name }, { ...itemOf(row), type: row.type as MailableType }, linksFor(base, row.user_id));
            await ctx.mailer.send(mail);
            sent += 1;
          } catch (err) {
            if (!refusedForGood(err)) {
              await repo.release(rows.slice(i).map((r) => r.id));
              throw err;
            }
            job.log.error({ err: (err as Error).message, notificationId: row.id }, 'notification mail refused by the SMTP server; given up');
          }
        }
        // Not mailable (suspended, unverified): done all the same, so it is not mailed when stale.
        await repo.markEmailed([row.id]);
      }
      await job.heartbeat();
      // Rendering and the rows' statements share the API's cores: batches leave them time between.
      await pace(started, job.signal);
      job.signal.throwIfAborted();
    }
    return sent;
  }

  async function digests(budget: number, job: JobContext, base: Omit<MailLinks, 'token'>): Promise<number> {
    let sent = 0;
    while (sent < budget) {
      const started = performance.now();
      const users = await repo.dueDigestUsers(Math.min(MAIL_BATCH, budget - sent));
      if (users.length === 0) break;
      for (const user of users) {
        if (!(await repo.takeDigestTurn(user.id))) continue;
        const { items, unread } = await repo.claimDigest(user.id, DIGEST_ITEMS_MAX);
        if (items.length === 0) {
          // Read in the app meanwhile: nothing to send, and no digest went out.
          await repo.markDigestEmailed(user.id);
          await repo.releaseDigest(user.id);
          continue;
        }
        try {
          await ctx.mailer.send(digestMail({ email: user.email, fullName: user.full_name }, items.map(itemOf), unread - items.length, linksFor(base, user.id)));
          sent += 1;
        } catch (err) {
          if (!refusedForGood(err)) {
            await repo.releaseDigestRows(user.id);
            await repo.releaseDigest(user.id);
            throw err;
          }
          job.log.error({ err: (err as Error).message, userId: user.id }, 'digest mail refused by the SMTP server; given up');
        }
        await repo.markDigestEmailed(user.id);
      }
      await job.heartbeat();
      // Rendering and the rows' statements share the API's cores: batches leave them time between.
      await pace(started, job.signal);
      job.signal.throwIfAborted();
    }
    return sent;
  }

  return {
    async run(_payload, job) {
      const base = { publicUrl: ctx.config.publicUrl, instanceName: (await ctx.settings.get()).name };
      const sent = await instant(MAILS_PER_RUN, job, base);
      const digested = await digests(MAILS_PER_RUN - sent, job, base);
      // The budget ran out: the next run takes the rest.
      if (sent + digested >= MAILS_PER_RUN) await requestMailRun(jobs);
      return { sent, digested };
    },
    // Nothing to mark: the rows were released and maintenance queues a new run.
    onFailed: async () => {},
  };
}

/** Maintenance: a mail run when something is due and none is waiting (digests coming due, rows of a failed run). */
export async function scheduleNotificationMail(ctx: AppContext): Promise<void> {
  if (await new NotificationMailRepository(ctx.db).anyDue()) await requestMailRun(new JobsRepository(ctx.db));
}
