import type { LikedVideo, LikeEntityType, LikeResult, LikeStatus, PageQuery } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { mediaUrls } from '../media-links/media-links.ts';
import { toVideoCard } from '../videos/videos.presenter.ts';
import { toLikeStatus } from './likes.presenter.ts';
import { LikesRepository } from './likes.repository.ts';

const entityName = { video: 'Video', tweet: 'Tweet', comment: 'Comment' } as const;

export class LikesService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Like (1) or dislike (-1): sets the reaction, switches it, or removes it when it is the active one.
   * One transaction holding the target's row lock, so counters stay equal to the rows.
   */
  react(userId: string, type: LikeEntityType, id: string, value: 1 | -1): Promise<LikeResult> {
    return this.ctx.db.transaction(async (tx) => {
      const repo = new LikesRepository(tx);
      if (!(await repo.lockTarget(type, id, userId))) throw notFound(`${entityName[type]} not found`);
      const current = await repo.findReaction(userId, type, id);
      const before = toLikeStatus(current?.value);
      const after: LikeStatus = before === value ? 0 : value;
      if (!current) await repo.insertReaction(userId, type, id, value);
      else if (after === 0) await repo.deleteReaction(current.id);
      else await repo.setReaction(current.id, value);
      const counts = await repo.bumpCounts(
        type,
        id,
        Number(after === 1) - Number(before === 1),
        Number(after === -1) - Number(before === -1),
      );
      return { likes: counts.likes, dislikes: counts.dislikes, likeStatus: after };
    });
  }

  async likedVideos(userId: string, q: PageQuery) {
    const rows = await new LikesRepository(this.ctx.db).listLikedVideos(userId, pageWindow(q));
    const items: LikedVideo[] = rows.map((r) => ({
      _id: r.likeId,
      likedAt: r.likedAt.toISOString(),
      video: toVideoCard(mediaUrls(this.ctx), r),
    }));
    return pageOf('likedVideos', items, q, (i) => i._id);
  }
}
