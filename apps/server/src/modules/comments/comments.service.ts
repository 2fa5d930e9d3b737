import { commentMessages, type Comment, type CommentEntityType, type PageQuery, type ReviewState } from '@glimpse/contract';
import { recordEvent } from '../../events/events.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { ChannelBlocksRepository } from '../channel-blocks/channel-blocks.repository.ts';
import { WatchedWordsService } from '../watched-words/watched-words.service.ts';
import { entityOf, toComment } from './comments.presenter.ts';
import { CommentsRepository, type CommentEntity, type CommentRow } from './comments.repository.ts';

const entityName = { video: 'Video', tweet: 'Tweet', live: 'Live' } as const;

/**
 * Comments, with the creator's moderation (issue #12 items 5 and 6). The owner of the video or
 * tweet a comment is on is its reviewer: they see it while held, approve or delete it, pin it
 * (videos), turn comments off (videos) and block users from commenting on their channel.
 * Counters (comments_count, replies_count) count published comments only.
 */
export class CommentsService {
  private readonly comments: CommentsRepository;

  constructor(private readonly ctx: AppContext) {
    this.comments = new CommentsRepository(ctx.db);
  }

  async create(userId: string, type: CommentEntityType, entityId: string, parentId: string | undefined, content: string): Promise<Comment> {
    const id = newId();
    const watched = await new WatchedWordsService(this.ctx).held(content);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const entity = await this.visibleEntity(repo, type, entityId, userId, true);
      if (!entity.commentsEnabled) throw forbidden(commentMessages.turnedOff);
      if (entity.ownerId !== userId && (await new ChannelBlocksRepository(tx).isBlocked(entity.ownerId, userId))) {
        throw forbidden(commentMessages.blocked);
      }
      if (parentId) {
        const parent = await this.parentIn(repo, type, entityId, parentId, userId, entity);
        if (parent.reviewState !== 'published') throw badRequest(commentMessages.heldParent);
      }
      const reviewState = this.reviewStateOf(watched, userId, entity);
      await repo.insert({
        id,
        ownerId: userId,
        content,
        parentId: parentId ?? null,
        videoId: type === 'video' ? entityId : null,
        tweetId: type === 'tweet' ? entityId : null,
        liveId: type === 'live' ? entityId : null,
        reviewState,
      });
      if (reviewState === 'published') await this.published(repo, tx, type, entityId, parentId ?? null, userId, id);
    });
    return this.view(id, userId);
  }

  /**
   * Top-level comments (parentId null) or the direct replies of one comment, as the viewer is
   * shown them; the pinned comment heads the first page of a video's comments. None while the
   * video's comments are turned off.
   */
  async list(type: CommentEntityType, entityId: string, parentId: string | null, viewerId: string | null, q: PageQuery) {
    const entity = await this.visibleEntity(this.comments, type, entityId, viewerId, false);
    const reviewer = entity.ownerId === viewerId;
    if (parentId) await this.parentIn(this.comments, type, entityId, parentId, viewerId, entity);
    const present = (rows: Parameters<typeof toComment>[1][]) => rows.map((r) => toComment(this.ctx.storage, r));
    if (!entity.commentsEnabled) return pageOf('comments', [], q, (c: Comment) => c._id);
    const first = type === 'video' && !parentId && !q.cursor && q.page === 1;
    if (!first) return pageOf('comments', present(await this.comments.list(type, entityId, parentId, viewerId, reviewer, pageWindow(q))), q, (c) => c._id);
    // The first page of a video's comments and its pinned one come in one statement; the list never holds the pinned row.
    const rows = await this.comments.listWithPinned(entityId, viewerId, reviewer, pageWindow(q));
    const pinned = rows.filter((r) => r.comment.pinnedAt !== null);
    const page = pageOf('comments', present(rows.filter((r) => r.comment.pinnedAt === null)), q, (c) => c._id);
    return pinned.length > 0 ? { ...page, comments: [...present(pinned), ...page.comments] } : page;
  }

  /** The held comments on the caller's videos and tweets: their review queue. */
  async held(ownerId: string, q: PageQuery) {
    const rows = await this.comments.listHeldFor(ownerId, pageWindow(q));
    return pageOf(
      'comments',
      rows.map((r) => toComment(this.ctx.storage, r)),
      q,
      (c) => c._id,
    );
  }

  /** The author edits; new words are judged again (held with a watched word, published without). */
  async update(userId: string, id: string, content: string): Promise<Comment> {
    const watched = await new WatchedWordsService(this.ctx).held(content);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const comment = await this.ownComment(repo, userId, id);
      if (comment.content === content) throw badRequest(commentMessages.unchanged);
      const { type, id: entityId } = entityOf(comment);
      const entity = (await repo.findEntity(type, entityId, userId, true))!;
      const reviewState = this.reviewStateOf(watched, userId, entity);
      await repo.updateContent(id, content, reviewState);
      if (reviewState !== comment.reviewState) await this.count(repo, type, entityId, comment.parentId, reviewState === 'published' ? 1 : -1);
      await commentChanged(tx, comment, userId);
    });
    return this.view(id, userId);
  }

  /**
   * Deletes the comment with its whole subtree: its author or the owner of the video or tweet may.
   * The entity's counter drops by exactly the published comments removed (`deletedCount`).
   * `within` joins the transaction (a moderator's deletion writes its log there).
   */
  async remove(userId: string, id: string, within?: (tx: Executor) => Promise<void>): Promise<{ _id: string; deletedCount: number }> {
    const deletedCount = await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const comment = await repo.findById(id);
      if (!comment) throw notFound(commentMessages.notFound);
      const { type, id: entityId } = entityOf(comment);
      const entity = (await repo.findEntity(type, entityId, userId, true))!;
      if (comment.ownerId !== userId && entity.ownerId !== userId) throw forbidden(commentMessages.notRemovable);
      // An ancestor's deletion may have taken this comment while we waited for the lock.
      const { removed, published } = await repo.deleteSubtree(id);
      if (removed === 0) throw notFound(commentMessages.notFound);
      await repo.bumpEntityCount(type, entityId, -published);
      if (comment.parentId && comment.reviewState === 'published') await repo.bumpReplies(comment.parentId, -1);
      await commentChanged(tx, comment, userId);
      await within?.(tx);
      return published;
    });
    return { _id: id, deletedCount };
  }

  /** The reviewer (owner of the video or tweet) publishes a held comment. */
  async approve(userId: string, id: string): Promise<Comment> {
    await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const { comment, entity } = await this.asEntityOwner(repo, userId, id, commentMessages.reviewerOnly);
      if (comment.reviewState !== 'held') throw badRequest(commentMessages.notHeld);
      await repo.publish(id);
      await this.published(repo, tx, entityOf(comment).type, entity.id, comment.parentId, comment.ownerId, id);
    });
    return this.view(id, userId);
  }

  /** The video's owner pins a published top-level comment; the one pinned before is unpinned. */
  async pin(userId: string, id: string, pinned: boolean): Promise<Comment> {
    await this.ctx.db.transaction(async (tx) => {
      const repo = new CommentsRepository(tx);
      const { comment, entity } = await this.asEntityOwner(repo, userId, id, commentMessages.pinOwnerOnly);
      if (!pinned) return repo.unpin(id);
      if (!comment.videoId || comment.parentId || comment.reviewState !== 'published') throw badRequest(commentMessages.pinTopLevel);
      await repo.pin(entity.id, id);
    });
    return this.view(id, userId);
  }

  /** The comment and its entity (locked) when the caller owns the entity; 403 with `refusal` otherwise. */
  private async asEntityOwner(repo: CommentsRepository, userId: string, id: string, refusal: string) {
    const comment = await repo.findById(id);
    if (!comment) throw notFound(commentMessages.notFound);
    const { type, id: entityId } = entityOf(comment);
    const entity = (await repo.findEntity(type, entityId, userId, true))!;
    if (entity.ownerId !== userId) throw forbidden(refusal);
    return { comment, entity };
  }

  /** A comment becomes visible: its counters, the event others hear of, and a live chat's viewers told at once. */
  private async published(repo: CommentsRepository, tx: Executor, type: CommentEntityType, entityId: string, parentId: string | null, actorId: string, commentId: string) {
    await this.count(repo, type, entityId, parentId, 1);
    await recordEvent(tx, { kind: 'commentPublished', actorId, commentId });
    if (type === 'live') await repo.announceLiveComment(entityId);
  }

  /** Held with a watched word, unless its author is the reviewer (who would approve it anyway). */
  private reviewStateOf(watched: boolean, userId: string, entity: CommentEntity): ReviewState {
    return watched && entity.ownerId !== userId ? 'held' : 'published';
  }

  /** Moves the counters a published comment is in: the entity's total and its parent's replies. */
  private async count(repo: CommentsRepository, type: CommentEntityType, entityId: string, parentId: string | null, delta: 1 | -1) {
    await repo.bumpEntityCount(type, entityId, delta);
    if (parentId) await repo.bumpReplies(parentId, delta);
  }

  private async view(id: string, viewerId: string): Promise<Comment> {
    const row = await this.comments.findView(id, viewerId);
    if (!row) throw notFound(commentMessages.notFound);
    return toComment(this.ctx.storage, row);
  }

  private async visibleEntity(repo: CommentsRepository, type: CommentEntityType, id: string, viewerId: string | null, lock: boolean): Promise<CommentEntity> {
    const entity = await repo.findEntity(type, id, viewerId, lock);
    if (!entity?.visible) throw notFound(`${entityName[type]} not found`);
    return entity;
  }

  /** The parent comment must exist, be shown to the viewer and hang on the same video or tweet. */
  private async parentIn(repo: CommentsRepository, type: CommentEntityType, entityId: string, parentId: string, viewerId: string | null, entity: CommentEntity): Promise<CommentRow> {
    const parent = await repo.findById(parentId);
    const shown = parent && (parent.reviewState === 'published' || parent.ownerId === viewerId || entity.ownerId === viewerId);
    if (!shown) throw notFound('Parent comment not found');
    const at = entityOf(parent);
    if (at.type !== type || at.id !== entityId) throw badRequest(commentMessages.parentElsewhere);
    return parent;
  }

  private async ownComment(repo: CommentsRepository, userId: string, id: string): Promise<CommentRow> {
    const comment = await repo.findById(id);
    if (!comment) throw notFound(commentMessages.notFound);
    if (comment.ownerId !== userId) throw forbidden(commentMessages.notOwner);
    return comment;
  }
}

/**
 * A video's comment changed (edited, deleted with its replies, taken down or restored): told in the
 * caller's transaction, so federation updates or deletes the Notes it sent (it reads the state when it runs).
 */
export async function commentChanged(tx: Executor, comment: { id: string; videoId: string | null }, actorId: string): Promise<void> {
  if (comment.videoId) await recordEvent(tx, { kind: 'commentChanged', actorId, commentId: comment.id, videoId: comment.videoId });
}
