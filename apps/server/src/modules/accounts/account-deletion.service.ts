import { accountMessages } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { recordEvent } from '../../events/events.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { accountDeletedMail } from '../../mail/templates.ts';
import { livePrefix, tweetImageFolder, userFilesPrefix, userUploadsPrefix, videoPrefixes } from '../../storage/media-keys.ts';
import { accountLabel, ModerationRepository } from '../moderation/moderation.repository.ts';
import { UsersService } from '../users/users.service.ts';
import { ACCOUNT_FILES_QUEUE, FILES_PER_JOB } from './account-files.job.ts';
import { AccountDeletionRepository } from './account-deletion.repository.ts';

/**
 * Deletes an account end to end (issue #12, item 8), for its owner (password confirmed) and for
 * admins alike. In one transaction: the counters of others' content are corrected, the account's
 * comments go with the replies under them, then the users row (which cascades to every table that
 * references it) and the rows naming it without a foreign key; its files are queued for removal
 * in the same transaction (retried by the worker). Sessions are rows: they are gone, and the
 * viewer plugin finds no account behind any access token still held. A mail confirms it.
 */
export class AccountDeletionService {
  constructor(
    private readonly ctx: AppContext,
    private readonly users = new UsersService(ctx),
  ) {}

  async deleteOwn(userId: string, password: string): Promise<void> {
    await this.users.checkPassword(userId, password, accountMessages.passwordWrong);
    await this.delete(userId, null);
  }

  async deleteByAdmin(adminId: string, userId: string): Promise<void> {
    if (adminId === userId) throw badRequest(accountMessages.notYourselfHere);
    await this.delete(userId, adminId);
  }

  /** `adminId`: the admin deleting someone else's account (null: the owner deletes their own). */
  private async delete(userId: string, adminId: string | null): Promise<void> {
    const account = await this.ctx.db.transaction(async (tx) => {
      const repo = new AccountDeletionRepository(tx);
      const row = await repo.lock(userId);
      if (!row) throw notFound(accountMessages.userNotFound);
      if (row.role === 'admin' && (await repo.lockAdmins()) <= 1) throw conflict(accountMessages.lastAdmin);
      const { videoIds, imageTweetIds, liveIds } = await repo.fileOwners(userId);
      await repo.deleteJobsNaming(userId, row.email);
      await repo.withdrawReactions(userId);
      await repo.withdrawSubscriptions(userId);
      // Servers that knew it hear of the deletion (federation sends Delete of its actors).
      const inboxes = await repo.federatedInboxes(userId);
      if (inboxes.length > 0) await recordEvent(tx, { kind: 'accountDeleted', actorId: null, userId, inboxes });
      await repo.deleteComments(userId);
      await repo.deleteAccount(userId);
      const moderation = new ModerationRepository(tx);
      await moderation.forgetGoneTargets();
      // The entries about the account forget it; an admin's deletion itself is on record, naming the
      // account it removed (an owner deleting their own account is not a staff action: no entry).
      if (adminId) {
        const label = accountLabel({ fullName: row.full_name, userName: row.user_name });
        await moderation.log({ actorId: adminId, targetKind: 'channel', targetId: null, action: 'account.delete', reason: '', label });
      }
      const prefixes = [
        ...videoIds.flatMap(videoPrefixes),
        ...imageTweetIds.map(tweetImageFolder),
        // Lives' thumbnails and last sessions (a session on air stops at its next heartbeat).
        ...liveIds.map((id) => `${livePrefix(id)}/`),
        userFilesPrefix(userId),
        // Unfinished uploads' chunks (ADR 018).
        userUploadsPrefix(userId),
      ];
      const jobs = new JobsRepository(tx);
      // No owner on the job: the account it would name is gone.
      for (let i = 0; i < prefixes.length; i += FILES_PER_JOB) {
        await jobs.enqueue(ACCOUNT_FILES_QUEUE, { prefixes: prefixes.slice(i, i + FILES_PER_JOB) }, { maxAttempts: 10 });
      }
      return row;
    });
    await this.ctx.mailer
      .send(accountDeletedMail({ email: account.email, fullName: account.full_name }, this.ctx.config.publicUrl, adminId !== null))
      // The account is gone whether or not the mail leaves: a mail failure must not answer 500.
      .catch(() => undefined);
  }
}
