import { messages, type UpdateMeBody } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../lib/errors.ts';
import { RateLimitsRepository } from '../../lib/rate-limits.repository.ts';
import { replaceFile, saveImage } from '../../storage/images.ts';
import { userImagePrefix } from '../../storage/media-keys.ts';
import { hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { SessionsService } from '../../identity/sessions.service.ts';
import { ChannelsRepository } from './channels.repository.ts';
import { freeUserName } from './user-names.ts';
import { toAuthUser, toChannel } from './users.presenter.ts';
import { UsersRepository, type ImageColumn, type UserRow } from './users.repository.ts';

export type ProfileImage = 'avatar' | 'cover';

/** Avatar square, cover at the spec's 5:1 ratio. */
const IMAGES: Record<ProfileImage, { column: ImageColumn; width: number; height: number }> = {
  avatar: { column: 'avatarKey', width: 256, height: 256 },
  cover: { column: 'coverKey', width: 1500, height: 300 },
};

export class UsersService {
  private readonly users: UsersRepository;
  private readonly sessions: SessionsService;
  private readonly rateLimits: RateLimitsRepository;

  constructor(private readonly ctx: AppContext) {
    this.users = new UsersRepository(ctx.db);
    this.sessions = new SessionsService(ctx);
    this.rateLimits = new RateLimitsRepository(ctx.db);
  }

  async me(userId: string) {
    return toAuthUser(this.ctx.storage, await this.account(userId));
  }

  /** Changes names; a taken user name is a 409 that suggests a free one. */
  async updateMe(userId: string, body: UpdateMeBody) {
    const current = await this.account(userId);
    if (body.userName !== current.userName && (await this.users.findByUserName(body.userName))) {
      throw await this.userNameTaken(body.userName);
    }
    try {
      const updated = await this.users.update(userId, { fullName: body.fullName, userName: body.userName });
      if (!updated) throw unauthorized('User not found');
      return toAuthUser(this.ctx.storage, updated);
    } catch (err) {
      // Someone took the name between the check and the update.
      if (isUniqueViolation(err, 'users_user_name_key')) throw await this.userNameTaken(body.userName);
      throw err;
    }
  }

  /**
   * Needs the current password; signs out every other session (the access token's `keepSessionId`,
   * else `keepRefreshToken`, names this one).
   * Attempts count per account, in the database so every API process shares them: a stolen access
   * token cannot be used to guess the password. A right password clears the count.
   */
  async changePassword(userId: string, curPassword: string, newPassword: string, keepRefreshToken?: string, keepSessionId?: string): Promise<void> {
    await this.checkPassword(userId, curPassword, messages.curPasswordWrong);
    if (curPassword === newPassword) throw badRequest(messages.samePassword);
    await this.users.update(userId, { passwordHash: await hashPassword(newPassword) });
    await this.sessions.revokeOthers(userId, keepRefreshToken, keepSessionId);
  }

  /**
   * The account's own password, before a change only its owner may make (new password, deletion):
   * a wrong one is a 400 with `wrongMessage`, and attempts count per account (429 past the limit).
   */
  async checkPassword(userId: string, password: string, wrongMessage: string): Promise<UserRow> {
    const user = await this.account(userId);
    const attempts = `password-change ${userId}`;
    await this.countAttempt(attempts);
    if (!(await verifyPassword(user.passwordHash, password))) throw badRequest(wrongMessage);
    await this.rateLimits.reset(attempts);
    return user;
  }

  /** 429 once a key has used up RATE_LIMIT_PASSWORD_CHANGE attempts in the window. */
  private async countAttempt(key: string): Promise<void> {
    const { enabled, passwordChange, windowSeconds } = this.ctx.config.rateLimits;
    if (!enabled || passwordChange === 0) return;
    const { hits, ttlMs } = await this.rateLimits.hit(key, windowSeconds * 1000);
    if (hits > passwordChange) throw tooManyRequests(ttlMs);
  }

  /** Stores a re-encoded copy of an uploaded image as the user's avatar or cover and removes the old file. */
  async setImage(userId: string, kind: ProfileImage, filePath: string) {
    const { column, width, height } = IMAGES[kind];
    const key = await saveImage(this.ctx.storage, filePath, userImagePrefix(userId, kind), { width, height, fit: 'cover' });
    const user = await replaceFile(this.ctx.storage, this.ctx.db, key, async (tx) => {
      const replaced = await new UsersRepository(tx).replaceImage(userId, column, key);
      return replaced && { oldKey: replaced.oldKey, result: replaced.user };
    });
    if (!user) throw unauthorized('User not found');
    return toAuthUser(this.ctx.storage, user);
  }

  /** A public channel by handle, with or without the leading @. */
  async channel(handle: string, viewerId: string | null) {
    const row = await new ChannelsRepository(this.ctx.db).findByUserName(handle.replace(/^@/, '').toLowerCase(), viewerId);
    if (!row) throw notFound(messages.channelNotFound);
    return toChannel(this.ctx.storage, row, viewerId);
  }

  private async account(userId: string): Promise<UserRow> {
    const user = await this.users.findById(userId);
    // A token for a deleted account is no longer a session.
    if (!user) throw unauthorized('User not found');
    return user;
  }

  private async userNameTaken(wanted: string) {
    return conflict(messages.userNameTaken, { availableUserName: await freeUserName(this.users, wanted) });
  }
}
