import { commentMessages, type Comment, type CommentEntityType, type PageQuery } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { entityOf, toComment } from './comments.presenter.ts';
import { CommentsRepository, type CommentRow } from './comments.repository.ts';

const entityName = { video: 'Video', tweet: 'Tweet' } as const;

export class CommentsService {
  private readonly comments: CommentsRepository;

  constructor(private readonly ctx: AppContext) {
    this.comments = new CommentsRepository(ctx.db);
  }

  async create(userId: string, type: CommentEntityType, entityId: string, parentId: string | undefined, content: string): Promise<Comment> {
    const id = newId();
    await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      await this.visibleEntity(repo, type, entityId, userId, true);
      if (parentId) await this.parentIn(repo, type, entityId, parentId);
      await repo.insert({ id, ownerId: userId, content, parentId: parentId ?? null, videoId: type === 'video' ? entityId : null, tweetId: type === 'tweet' ? entityId : null });
      await repo.bumpEntityCount(type, entityId, 1);
      if (parentId) await repo.bumpReplies(parentId, 1);
    });
    return this.view(id, userId);
  }

  /** Top-level comments (parentId null) or the direct replies of one comment. */
  async list(type: CommentEntityType, entityId: string, parentId: string | null, viewerId: string | null, q: PageQuery) {
    await this.visibleEntity(this.comments, type, entityId, viewerId, false);
    if (parentId) await this.parentIn(this.comments, type, entityId, parentId);
    const rows = await this.comments.list(type, entityId, parentId, viewerId, pageWindow(q));
    return pageOf(
      'comments',
      rows.map((r) => toComment(this.ctx.storage, r)),
      q,
      (c) => c._id,
    );
  }

  async update(userId: string, id: string, content: string): Promise<Comment> {
    const comment = await this.ownComment(this.comments, userId, id);
    if (comment.content === content) throw badRequest(commentMessages.unchanged);
    await this.comments.updateContent(id, content);
    return this.view(id, userId);
  }

  /** Deletes the comment with its whole subtree; the entity's counter drops by exactly deletedCount. */
  async remove(userId: string, id: string): Promise<{ _id: string; deletedCount: number }> {
    const deletedCount = await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const comment = await this.ownComment(repo, userId, id);
      const entity = entityOf(comment);
      await repo.findEntity(entity.type, entity.id, userId, true);
      // An ancestor's deletion may have taken this comment while we waited for the lock.
      const removed = await repo.deleteSubtree(id);
      if (removed === 0) throw notFound(commentMessages.notFound);
      await repo.bumpEntityCount(entity.type, entity.id, -removed);
      if (comment.parentId) await repo.bumpReplies(comment.parentId, -1);
      return removed;
    });
    return { _id: id, deletedCount };
  }

  private async view(id: string, viewerId: string): Promise<Comment> {
    const row = await this.comments.findView(id, viewerId);
    if (!row) throw notFound(commentMessages.notFound);
    return toComment(this.ctx.storage, row);
  }

  private async visibleEntity(repo: CommentsRepository, type: CommentEntityType, id: string, viewerId: string | null, lock: boolean) {
    const entity = await repo.findEntity(type, id, viewerId, lock);
    if (!entity?.visible) throw notFound(`${entityName[type]} not found`);
  }

  /** The parent comment must exist and hang on the same video or tweet. */
  private async parentIn(repo: CommentsRepository, type: CommentEntityType, entityId: string, parentId: string): Promise<void> {
    const parent = await repo.findById(parentId);
    if (!parent) throw notFound('Parent comment not found');
    const entity = entityOf(parent);
    if (entity.type !== type || entity.id !== entityId) throw badRequest(commentMessages.parentElsewhere);
  }

  private async ownComment(repo: CommentsRepository, userId: string, id: string): Promise<CommentRow> {
    const comment = await repo.findById(id);
    if (!comment) throw notFound(commentMessages.notFound);
    if (comment.ownerId !== userId) throw forbidden('You can only change your own comments');
    return comment;
  }
}
