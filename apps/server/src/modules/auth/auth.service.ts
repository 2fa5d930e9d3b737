import { messages, type LoginBody, type LoginResult, type RegisterBody } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { JobsRepository } from '../../jobs/jobs.repository.ts';
import { ApiError, conflict, unauthorized } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/hash.ts';
import { newId } from '../../lib/ids.ts';
import { resetLink, resetMail, verificationLink, verificationMail } from '../../mail/templates.ts';
import { deliverOr503 } from '../../mail/deliver.ts';
import { signupRefusal } from '../registrations/signup-policy.ts';
import { accountRefusal } from '../../identity/account-state.ts';
import { promoteAdminEmail } from '../users/roles.service.ts';
import { freeUserName, userNameFromFullName } from '../users/user-names.ts';
import { toAuthUser } from '../users/users.presenter.ts';
import { UsersRepository, type UserRow } from '../users/users.repository.ts';
import { EmailTokensRepository, type EmailTokenPurpose } from './email-tokens.repository.ts';
import { hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { SessionsRepository } from '../../identity/sessions.repository.ts';
import { SessionsService } from '../../identity/sessions.service.ts';

export const PASSWORD_RESET_MAIL_QUEUE = 'password-reset-mail';
const VERIFY_HOURS = 24;
const RESET_HOURS = 1;
// Requests may pick the same free user name at once; each loser retries with a fresh one. With n
// simultaneous sign-ups of one full name the last needs n attempts, so allow a generous number.
const USERNAME_ATTEMPTS = 20;

export class AuthService {
  private readonly users: UsersRepository;
  private readonly emailTokens: EmailTokensRepository;
  readonly sessions: SessionsService;

  constructor(private readonly ctx: AppContext) {
    this.users = new UsersRepository(ctx.db);
    this.emailTokens = new EmailTokensRepository(ctx.db);
    this.sessions = new SessionsService(ctx);
  }

  /**
   * Creates an unverified account with a generated user name and mails the verification link, in one
   * transaction: when the mail cannot be sent, no account is left behind and the user can try again.
   * The instance settings decide who may register (signupRefusal) and whether the account waits
   * for a moderator (approval mode); the operator's ADMIN_EMAIL is never refused nor kept waiting.
   */
  async register(body: RegisterBody) {
    const settings = await this.ctx.settings.get();
    const operator = body.email === this.ctx.config.adminEmail;
    const refusal = operator ? null : signupRefusal(settings, body.email);
    if (refusal) throw refusal;
    const pendingApproval = !operator && settings.registrationMode === 'approval';
    if (await this.users.findByEmail(body.email)) throw conflict(messages.emailTaken);
    const passwordHash = await hashPassword(body.password);
    const base = userNameFromFullName(body.fullName);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const user = await this.ctx.db.transaction(async (tx) => {
          const users = new UsersRepository(tx);
          const created = await users.insert({
            id: newId(),
            fullName: body.fullName,
            userName: await freeUserName(users, base),
            email: body.email,
            passwordHash,
            ...(pendingApproval ? { state: 'pending_approval' as const, registrationReason: body.reason || null } : {}),
          });
          await this.sendVerification(created, new EmailTokensRepository(tx));
          return created;
        });
        return { user: toAuthUser(this.ctx.storage, user), pendingApproval };
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_key')) throw conflict(messages.emailTaken);
        if (!isUniqueViolation(err, 'users_user_name_key') || attempt >= USERNAME_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Starts a session for the right email and password. An unverified account answers 403 and gets a
   * fresh verification mail, at most RATE_LIMIT_VERIFICATION_RESEND per window per account.
   */
  async login(body: LoginBody, userAgent?: string): Promise<LoginResult> {
    const user = await this.users.findByEmail(body.email);
    if (!(await verifyPassword(user?.passwordHash, body.password)) || !user) throw unauthorized(messages.invalidCredentials);
    if (!user.emailVerifiedAt) {
      const sent = await this.resendVerification(user);
      throw new ApiError(403, sent ? messages.emailNotVerified : messages.emailNotVerifiedRecentlySent);
    }
    const refusal = accountRefusal(user);
    if (refusal) throw refusal;
    const tokens = await this.sessions.start(user, userAgent);
    return { ...tokens, user: toAuthUser(this.ctx.storage, user) };
  }

  /**
   * Queues the reset mail for the worker: the request does the same work (one insert) for known
   * and unknown emails, so neither the answer nor its timing tells whether an account exists.
   */
  async forgotPassword(email: string): Promise<void> {
    await new JobsRepository(this.ctx.db).enqueue(PASSWORD_RESET_MAIL_QUEUE, { email });
  }

  /** The queued job: mails a reset link when the account exists; answers whether it did. */
  async mailResetLink(email: string): Promise<boolean> {
    const user = await this.users.findByEmail(email);
    if (!user) return false;
    const token = await this.createEmailToken(this.emailTokens, user.id, 'reset', RESET_HOURS);
    await this.ctx.mailer.send(resetMail(user, resetLink(this.ctx.config.publicUrl, token), RESET_HOURS));
    return true;
  }

  async verifyEmail(token: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const userId = await new EmailTokensRepository(tx).consume(sha256(token), 'verify');
      if (!userId) throw new ApiError(400, messages.verificationLinkInvalid);
      await this.markEmailVerified(tx, userId);
    });
  }

  /**
   * Sets a new password from a reset link (which also proves the mailbox, so the email counts as
   * verified) and signs out every session.
   */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    const tokenHash = sha256(token);
    // Cheap check first: hashing a password for a bogus link would be wasted work.
    if (!(await this.emailTokens.findLiveUserId(tokenHash, 'reset'))) throw unauthorized(messages.resetLinkInvalid);
    const passwordHash = await hashPassword(newPassword);
    await this.ctx.db.transaction(async (tx) => {
      const emailTokens = new EmailTokensRepository(tx);
      const userId = await emailTokens.consume(tokenHash, 'reset');
      if (!userId) throw unauthorized(messages.resetLinkInvalid);
      const users = new UsersRepository(tx);
      await users.update(userId, { passwordHash });
      await this.markEmailVerified(tx, userId);
      await emailTokens.consumeAll(userId, 'reset');
      await new SessionsRepository(tx).revokeUser(userId);
    });
  }

  /** A verified email may be the operator's ADMIN_EMAIL: its account becomes an admin at once. */
  private async markEmailVerified(tx: Executor, userId: string): Promise<void> {
    await new UsersRepository(tx).markEmailVerified(userId);
    await promoteAdminEmail(tx, this.ctx.config);
  }

  private async resendVerification(user: UserRow): Promise<boolean> {
    const { enabled, verificationResend, windowSeconds } = this.ctx.config.rateLimits;
    if (enabled && verificationResend > 0) {
      const since = new Date(Date.now() - windowSeconds * 1000);
      if ((await this.emailTokens.countSince(user.id, 'verify', since)) >= verificationResend) return false;
    }
    await this.sendVerification(user);
    return true;
  }

  private async sendVerification(user: UserRow, emailTokens = this.emailTokens): Promise<void> {
    const token = await this.createEmailToken(emailTokens, user.id, 'verify', VERIFY_HOURS);
    await deliverOr503(this.ctx.mailer, verificationMail(user, verificationLink(this.ctx.config.publicUrl, token), VERIFY_HOURS));
  }

  private async createEmailToken(
    emailTokens: EmailTokensRepository,
    userId: string,
    purpose: EmailTokenPurpose,
    hours: number,
  ): Promise<string> {
    const token = randomToken();
    await emailTokens.insert({
      id: newId(),
      userId,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + hours * 3600 * 1000),
    });
    return token;
  }
}
