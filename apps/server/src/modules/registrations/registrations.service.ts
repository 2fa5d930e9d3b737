import { registrationMessages, type PageQuery, type PendingRegistration } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { deliverOr503 } from '../../mail/deliver.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { accountLabel, ModerationRepository } from '../moderation/moderation.repository.ts';
import { aboutLink, loginLink, registrationApprovedMail, registrationRejectedMail } from '../../mail/templates.ts';
import { RegistrationsRepository, type RegistrationRow } from './registrations.repository.ts';

const toPendingRegistration = (r: RegistrationRow): PendingRegistration => ({
  _id: r.id,
  fullName: r.fullName,
  userName: r.userName,
  email: r.email,
  emailVerified: r.emailVerifiedAt !== null,
  createdAt: r.createdAt.toISOString(),
  reason: r.registrationReason,
});

/** The moderators' queue of accounts waiting for approval (checked with can(viewer, 'moderate') by the routes). */
export class RegistrationsService {
  constructor(private readonly ctx: AppContext) {}

  async list(q: PageQuery) {
    const rows = await new RegistrationsRepository(this.ctx.db).listPending(pageWindow(q));
    return pageOf('data', rows.map(toPendingRegistration), q, (r) => r._id);
  }

  /** Activates the pending account and mails the login link; nothing changes when the mail cannot go. */
  async approve(moderatorId: string, userId: string): Promise<void> {
    const { name } = await this.ctx.settings.get();
    await this.decide(
      { actorId: moderatorId, action: 'registration.approve', targetUserId: userId, reason: null },
      (repo) => repo.approve(userId),
      (row) => registrationApprovedMail(row, name, loginLink(this.ctx.config.publicUrl)),
    );
  }

  /** Mails the reason and removes the pending account, so the email may register again later. */
  async reject(moderatorId: string, userId: string, reason: string): Promise<void> {
    const { name } = await this.ctx.settings.get();
    await this.decide(
      { actorId: moderatorId, action: 'registration.reject', targetUserId: userId, reason },
      (repo) => repo.remove(userId),
      (row) => registrationRejectedMail(row, name, reason, aboutLink(this.ctx.config.publicUrl)),
    );
  }

  /** One decision in one transaction: only on a pending account (404 otherwise), the mail sent before it commits. */
  private async decide(
    logEntry: { actorId: string; action: 'registration.approve' | 'registration.reject'; targetUserId: string; reason: string | null },
    act: (repo: RegistrationsRepository) => Promise<RegistrationRow | undefined>,
    mail: (row: RegistrationRow) => MailMessage,
  ): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const row = await act(new RegistrationsRepository(tx));
      if (!row) throw notFound(registrationMessages.notFound);
      // The moderation log (ADR 012), in the decision's transaction: the one call site for both decisions.
      const { actorId, action, targetUserId, reason } = logEntry;
      // Named as it registered: a rejected account is gone once this commits.
      await new ModerationRepository(tx).log({ actorId, targetKind: 'channel', targetId: targetUserId, action, reason: reason ?? '', label: accountLabel(row) });
      await deliverOr503(this.ctx.mailer, mail(row));
    });
  }
}
