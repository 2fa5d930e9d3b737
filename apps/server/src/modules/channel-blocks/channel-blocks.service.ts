import { channelBlockMessages, type ChannelBlock, type PageQuery } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { toOwner } from '../users/users.presenter.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { ChannelBlocksRepository } from './channel-blocks.repository.ts';

/** A channel owner blocks users from commenting on their videos and tweets (issue #12 item 6). */
export class ChannelBlocksService {
  private readonly blocks: ChannelBlocksRepository;

  constructor(private readonly ctx: AppContext) {
    this.blocks = new ChannelBlocksRepository(ctx.db);
  }

  async block(channelId: string, userId: string): Promise<{ userId: string }> {
    if (channelId === userId) throw badRequest(channelBlockMessages.notSelf);
    if (!(await new UsersRepository(this.ctx.db).findById(userId))) throw notFound(channelBlockMessages.userNotFound);
    await this.blocks.insert(channelId, userId);
    return { userId };
  }

  async unblock(channelId: string, userId: string): Promise<{ userId: string }> {
    if (!(await this.blocks.delete(channelId, userId))) throw notFound(channelBlockMessages.notBlocked);
    return { userId };
  }

  async list(channelId: string, q: PageQuery) {
    const rows = await this.blocks.list(channelId, pageWindow(q));
    const items: ChannelBlock[] = rows.map((r) => ({ user: toOwner(this.ctx.storage, r.owner), blockedAt: r.blockedAt.toISOString() }));
    return pageOf('blocks', items, q, (b) => b.user._id);
  }
}
