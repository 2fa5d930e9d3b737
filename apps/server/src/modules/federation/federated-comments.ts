import { federationMessages as m } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { isUuid, newId } from '../../lib/ids.ts';
import { WatchedWordsService } from '../watched-words/watched-words.service.ts';
import { enqueueDeliveries } from './delivery.ts';
import { activity, AS_PUBLIC, FederationUrls, noteObject, textToHtml } from './documents.ts';
import { FederationRepository, type RemoteActorRow } from './federation.repository.ts';
import { httpUrl, idOf, remoteTime, sanitiseHtml } from './incoming.ts';

const MAX_COMMENT = 5000;



/**
 * Comments across servers (issue #35): our users comment on remote videos and reply in threads;
 * remote Notes answering our videos (or a comment of a thread we keep) are stored, with watched
 * words holding them on our videos as they hold local comments.
 */
export class FederatedComments {
  private readonly urls: FederationUrls;
  private readonly repo: FederationRepository;

  constructor(private readonly ctx: AppContext) {
    this.urls = new FederationUrls(ctx.config.publicUrl);
    this.repo = new FederationRepository(ctx.db);
  }

  private checkText(content: string): string {
    const text = content.trim();
    if (!text || text.length > MAX_COMMENT) throw badRequest(m.badComment);
    return text;
  }

  /** A user's comment on a remote video: stored here and sent to the video's channel. */
  async commentOnRemote(userId: string, remoteVideoId: string, content: string) {
    const row = await this.repo.remoteVideoWithActor(remoteVideoId);
    if (!row) throw notFound(m.videoNotFound);
    return this.publish(userId, { remoteVideoId, inReplyTo: row.video.uri }, this.checkText(content), [row.actor]);
  }

  /** A user's reply to a comment of a thread (on one of our videos or a remote one): sent to whoever the thread involves elsewhere. */
  async reply(userId: string, commentId: string, content: string) {
    const parent = await this.repo.comment(commentId);
    if (!parent || parent.reviewState !== 'published') throw notFound(m.commentNotFound);
    const text = this.checkText(content);
    const to: RemoteActorRow[] = [];
    if (parent.authorActorId) to.push((await this.repo.remoteActor(parent.authorActorId))!);
    if (parent.localVideoId) {
      const video = await this.repo.listedVideo(parent.localVideoId);
      if (!video) throw notFound(m.commentNotFound);
      if (!video.video.commentsEnabled) throw forbidden(m.commentsOff);
      return this.publish(userId, { localVideoId: parent.localVideoId, inReplyTo: parent.uri }, text, to);
    }
    const remote = await this.repo.remoteVideoWithActor(parent.remoteVideoId!);
    if (!remote) throw notFound(m.commentNotFound);
    return this.publish(userId, { remoteVideoId: remote.video.id, inReplyTo: parent.uri }, text, [remote.actor, ...to]);
  }

  private async publish(
    userId: string,
    thread: { localVideoId?: string; remoteVideoId?: string; inReplyTo: string },
    text: string,
    recipients: RemoteActorRow[],
  ) {
    const id = newId();
    const uri = `${this.urls.base}/ap/comments/${id}`;
    const content = textToHtml(text);
    const note = noteObject(this.urls, {
      uri,
      authorUserId: userId,
      inReplyTo: thread.inReplyTo,
      content,
      publishedAt: new Date(),
      cc: [...new Set(recipients.map((r) => r.uri))],
    });
    await this.ctx.db.transaction(async (tx) => {
      const repo = new FederationRepository(tx);
      await repo.insertComment({ id, uri, ...thread, authorUserId: userId, content, publishedAt: new Date(note.published) });
      const me = this.urls.account(userId);
      const create = activity('Create', `${uri}/activity`, me, note, { to: note.to, cc: note.cc });
      await enqueueDeliveries(tx, recipients.map((r) => r.sharedInbox ?? r.inbox), create, { kind: 'account', userId });
    });
    return { _id: id, uri };
  }

  /** A thread: the comments on our video (`videoId` local) or on a remote video we keep. */
  async thread(videoId: string, viewerId: string | null) {
    // A thread is shown with its video: a remote one we keep, or one of ours the viewer may open.
    if (!(await this.repo.remoteVideoWithActor(videoId)) && !(await this.repo.videoVisible(videoId, viewerId))) throw notFound(m.videoNotFound);
    const local = await this.repo.listedVideo(videoId);
    const rows = await this.repo.thread(videoId, !!local && local.video.ownerId === viewerId);
    return rows.map(({ comment: c, ...a }) => ({
      _id: c.id,
      uri: c.uri,
      inReplyTo: c.inReplyTo,
      content: c.content,
      held: c.reviewState === 'held',
      author: c.authorUserId
        ? { name: a.fullName ?? '', handle: `@${a.userName}`, host: null }
        : { name: a.actorName ?? '', handle: `@${a.actorHandle}@${a.actorHost}`, host: a.actorHost },
      publishedAt: c.publishedAt.toISOString(),
    }));
  }

  /** The Note of a comment written here (served at its id). */
  async noteDocument(id: string) {
    const c = await this.repo.comment(id);
    if (!c?.authorUserId || c.reviewState !== 'published') return null;
    if (c.localVideoId && !(await this.repo.listedVideo(c.localVideoId))) return null;
    return noteObject(this.urls, { uri: c.uri, authorUserId: c.authorUserId, inReplyTo: c.inReplyTo, content: c.content, publishedAt: c.publishedAt, cc: [] });
  }

  /** The watched-words check, read before the inbox's transaction opens (on PGlite one connection serves both). */
  async watchedWords(): Promise<(content: string) => boolean> {
    const matcher = await new WatchedWordsService(this.ctx).matcher();
    return (content) => matcher.find(content) !== null;
  }

  /**
   * An incoming Note (in a Create): stored when it answers one of our listed videos (comments on),
   * a comment of a thread we keep, or a remote video we keep. Null when it answers nothing here.
   */
  async receive(
    repo: FederationRepository,
    actor: RemoteActorRow,
    object: Record<string, unknown>,
    watched: (content: string) => boolean,
  ): Promise<'stored' | 'held' | 'ignored' | null> {
    const id = httpUrl(object.id);
    if (!id || id.host !== actor.host) return null;
    // A post that answers nothing (a channel's message, a Mastodon status) is not a comment: not kept.
    const inReplyTo = httpUrl(idOf(object.inReplyTo));
    if (!inReplyTo) return 'ignored';
    if (idOf(object.attributedTo) !== actor.uri) return null;
    // PeerTube accepts public comments only; so do we.
    const audience = [object.to, object.cc].flat().filter((x): x is string => typeof x === 'string');
    if (!audience.includes(AS_PUBLIC)) return null;
    const content = typeof object.content === 'string' ? sanitiseHtml(object.content) : '';
    if (!content.trim()) return null;
    const base = { id: newId(), uri: id.toString(), authorActorId: actor.id, inReplyTo: inReplyTo.toString(), content, publishedAt: new Date(remoteTime(object.published) ?? Date.now()) };

    const parent = await repo.commentByUri(inReplyTo.toString());
    const localVideoId = parent?.localVideoId ?? this.localVideoId(inReplyTo.toString()) ?? (await this.localCommentVideo(repo, inReplyTo.toString()));
    if (localVideoId) {
      const video = await repo.listedVideo(localVideoId);
      if (!video || !video.video.commentsEnabled) return 'ignored';
      // The channel's owner blocked this account: as a local blocked user, it cannot comment there.
      if (await repo.channelBlocksActor(video.video.ownerId, actor.id)) return 'ignored';
      const held = watched(content);
      await repo.insertComment({ ...base, localVideoId, reviewState: held ? 'held' : 'published' });
      return held ? 'held' : 'stored';
    }
    const remoteVideoId = parent?.remoteVideoId ?? (await repo.remoteVideoByUri(inReplyTo.toString()))?.id;
    if (!remoteVideoId) return 'ignored';
    await repo.insertComment({ ...base, remoteVideoId });
    return 'stored';
  }

  /** A reply to one of our local comments' Notes (`/ap/video-comments/{id}`) is kept under that comment's video. */
  private async localCommentVideo(repo: FederationRepository, uri: string): Promise<string | null> {
    const prefix = `${this.urls.base}/ap/video-comments/`;
    const id = uri.startsWith(prefix) ? uri.slice(prefix.length) : '';
    return isUuid(id) ? repo.commentVideo(id.toLowerCase()) : null;
  }

  private localVideoId(uri: string): string | null {
    const prefix = `${this.urls.base}/ap/videos/`;
    const id = uri.startsWith(prefix) ? uri.slice(prefix.length) : '';
    return isUuid(id) ? id.toLowerCase() : null;
  }
}

