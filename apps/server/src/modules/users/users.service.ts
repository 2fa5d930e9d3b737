import { messages, type UpdateMeBody } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { coverJpeg } from '../../lib/images.ts';
import { userImageKey } from '../../storage/media-keys.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { SessionsService } from '../auth/sessions.service.ts';
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

  constructor(private readonly ctx: AppContext) {
    this.users = new UsersRepository(ctx.db);
    this.sessions = new SessionsService(ctx);
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

  /** Needs the current password; signs out every other session (keepRefreshToken names this one). */
  async changePassword(userId: string, curPassword: string, newPassword: string, keepRefreshToken?: string): Promise<void> {
    const user = await this.account(userId);
    if (!(await verifyPassword(user.passwordHash, curPassword))) throw badRequest(messages.curPasswordWrong);
    if (curPassword === newPassword) throw badRequest(messages.samePassword);
    await this.users.update(userId, { passwordHash: await hashPassword(newPassword) });
    await this.sessions.revokeOthers(userId, keepRefreshToken);
  }

  /** Stores a resized copy of an uploaded image as the user's avatar or cover and removes the old file. */
  async setImage(userId: string, kind: ProfileImage, filePath: string) {
    const { column, width, height } = IMAGES[kind];
    const jpeg = await coverJpeg(filePath, width, height);
    const key = userImageKey(userId, kind, newId());
    await this.ctx.storage.putBuffer(key, jpeg, 'image/jpeg');
    let replaced: Awaited<ReturnType<UsersRepository['replaceImage']>>;
    try {
      replaced = await this.ctx.db.transaction((tx) => new UsersRepository(tx).replaceImage(userId, column, key));
    } catch (err) {
      await this.ctx.storage.delete(key);
      throw err;
    }
    if (!replaced) {
      await this.ctx.storage.delete(key);
      throw unauthorized('User not found');
    }
    if (replaced.oldKey) await this.ctx.storage.delete(replaced.oldKey);
    return toAuthUser(this.ctx.storage, replaced.user);
  }

  /** A public channel by handle, with or without the leading @. */
  async channel(handle: string, viewerId: string | null) {
    const row = await this.users.findChannel(handle.replace(/^@/, '').toLowerCase(), viewerId);
    if (!row) throw notFound(messages.channelNotFound);
    return toChannel(this.ctx.storage, row);
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
