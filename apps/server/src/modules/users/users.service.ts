import type { AppContext } from '../../context.ts';
import { unauthorized } from '../../lib/errors.ts';
import { toAuthUser } from './users.presenter.ts';
import { UsersRepository } from './users.repository.ts';

export class UsersService {
  private readonly users: UsersRepository;

  constructor(private readonly ctx: AppContext) {
    this.users = new UsersRepository(ctx.db);
  }

  async me(userId: string) {
    const user = await this.users.findById(userId);
    // A token for a deleted account is no longer a session.
    if (!user) throw unauthorized('User not found');
    return toAuthUser(this.ctx.storage, user);
  }
}
