import { federationMessages as m, REPORT_TEXT_MAX, reportReasonLabels, type ChannelRemoteBlock, type RemoteReportBody, type ReportReason, type ReportTargetKind } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { ModerationRepository } from '../moderation/moderation.repository.ts';
import { enqueueDeliveries, newActivityId } from './delivery.ts';
import { AP_CONTEXT, FederationUrls } from './documents.ts';
import { FederationRepository, type RemoteActorRow } from './federation.repository.ts';
import { httpUrl, idOf, parseHandle, plainText } from './incoming.ts';

/**
 * PeerTube's predefined abuse reasons (its `AbusePredefinedReasonsString`), sent and read as the
 * Flag's `Hashtag` tags; a reason with no counterpart is only in the text.
 */
const PEERTUBE_REASONS: Partial<Record<ReportReason, string>> = {
  spam: 'spamOrMisleading',
  harassment: 'hatefulOrAbusive',
  hateful: 'hatefulOrAbusive',
  sexual: 'violentOrRepulsive',
  violent: 'violentOrRepulsive',
  copyright: 'rights',
};
const FROM_PEERTUBE: Record<string, ReportReason> = {
  spamOrMisleading: 'spam',
  hatefulOrAbusive: 'hateful',
  violentOrRepulsive: 'violent',
  rights: 'copyright',
};

/** PeerTube's `isAbuseReasonValid`: 2 to 3000 characters. */
const FLAG_TEXT_MAX = 3000;
/** Open reports one remote server may have in our queue at once (a server cannot flood it). */
export const MAX_OPEN_REMOTE_REPORTS_PER_HOST = 100;
/** Objects of one incoming Flag looked at (Mastodon sends the account and a few statuses). */
const MAX_FLAG_OBJECTS = 5;

/**
 * Moderation across servers (issue #35): a channel's blocks of remote accounts, our users' reports
 * on remote content forwarded as `Flag`, and other servers' `Flag`s about our content queued here.
 */
export class FederatedModeration {
  private readonly urls: FederationUrls;
  private readonly repo: FederationRepository;

  constructor(private readonly ctx: AppContext) {
    this.urls = new FederationUrls(ctx.config.publicUrl);
    this.repo = new FederationRepository(ctx.db);
  }

  // --- channel blocks -------------------------------------------------------------------------

  /** A remote account known here, by `@name@host` or its address. */
  private async knownActor(text: string): Promise<RemoteActorRow> {
    const url = /^https?:\/\//i.test(text) ? httpUrl(text) : null;
    const handle = url ? null : parseHandle(text);
    if (!url && !handle) throw badRequest(m.badBlockTarget);
    const actor = url ? await this.repo.remoteActorByUri(url.toString()) : await this.repo.remoteActorByHandle(handle!.name, handle!.host);
    if (!actor) throw notFound(m.unknownAccount);
    return actor;
  }

  private toBlock(actor: RemoteActorRow, blockedAt: Date): ChannelRemoteBlock {
    return { actorId: actor.id, handle: `@${actor.preferredUsername}@${actor.host}`, name: actor.name, blockedAt: blockedAt.toISOString() };
  }

  /** The channel owner blocks a remote account: its Notes on the channel's videos are no longer kept. */
  async block(channelId: string, handle: string): Promise<ChannelRemoteBlock> {
    const actor = await this.knownActor(handle);
    await this.repo.addChannelBlock(channelId, actor.id);
    return (await this.blocks(channelId)).find((b) => b.actorId === actor.id)!;
  }

  async unblock(channelId: string, actorId: string): Promise<{ actorId: string }> {
    if (!(await this.repo.removeChannelBlock(channelId, actorId))) throw notFound(m.notBlocked);
    return { actorId };
  }

  async blocks(channelId: string): Promise<ChannelRemoteBlock[]> {
    return (await this.repo.channelBlocks(channelId)).map((r) => this.toBlock(r.actor, r.blockedAt));
  }

  // --- reports out: Flag -------------------------------------------------------------------------

  /**
   * A user's report on a remote video or a remote account's comment, sent to that server's inbox as
   * a `Flag` from our instance actor (the reporter stays private, as Mastodon does). The shape is
   * PeerTube's (flag.ts: `isFlagActivityValid`): `content` the reason in 2 to 3000 characters and
   * `object` one URL; its predefined reasons as `Hashtag` tags (abuse model `toActivityPubObject`).
   */
  async report(userId: string, body: RemoteReportBody): Promise<{ object: string }> {
    if (!this.ctx.config.federation.enabled) throw new ApiError(403, m.disabled);
    let object: string;
    let to: RemoteActorRow;
    if (body.targetKind === 'video') {
      const row = await this.repo.remoteVideoWithActor(body.targetId);
      if (!row) throw notFound(m.reportTargetNotFound);
      ({ video: { uri: object }, actor: to } = row);
    } else {
      const comment = await this.repo.comment(body.targetId);
      const author = comment?.authorActorId && comment.reviewState === 'published' ? await this.repo.remoteActor(comment.authorActorId) : undefined;
      if (!comment || !author) throw notFound(m.reportTargetNotFound);
      object = comment.uri;
      to = author;
    }
    if (await this.repo.isBlocked(to.host, to.uri)) throw notFound(m.reportTargetNotFound);
    const label = reportReasonLabels[body.reason];
    const content = (body.text ? `${label}: ${body.text}` : label).slice(0, FLAG_TEXT_MAX);
    const tag = PEERTUBE_REASONS[body.reason];
    const flag = {
      '@context': AP_CONTEXT,
      type: 'Flag',
      id: newActivityId(this.urls, 'flag'),
      actor: this.urls.instance(),
      content,
      mediaType: 'text/markdown',
      object,
      ...(tag ? { tag: [{ type: 'Hashtag', name: tag }] } : {}),
      to: [to.uri],
    };
    await this.ctx.db.transaction(async (tx) => {
      if (!(await new FederationRepository(tx).insertFlag(userId, object))) throw conflict(m.alreadyReported);
      await enqueueDeliveries(tx, [to.sharedInbox ?? to.inbox], flag, { kind: 'instance' });
    });
    return { object };
  }

  // --- reports in: Flag ---------------------------------------------------------------------------

  /**
   * The report target named: one of our addresses (a video, tweet or channel), or a comment of a
   * thread across servers that is ours to moderate (written here, or under one of our videos);
   * null otherwise (another server's comment on another server's video is that server's to judge).
   */
  private async localTarget(repo: FederationRepository, uri: string): Promise<{ kind: ReportTargetKind; id: string } | null> {
    const comment = await repo.commentByUri(uri);
    if (comment) return comment.authorUserId || comment.localVideoId ? { kind: 'federatedComment', id: comment.id } : null;
    const match = /^\/(ap\/videos|video|ap\/tweets|ap\/video-comments|ap\/channels|ap\/accounts)\/([0-9a-f-]{36})$/i.exec(uri.startsWith(this.urls.base) ? uri.slice(this.urls.base.length) : '');
    if (!match || !isUuid(match[2]!.toLowerCase())) return null;
    const id = match[2]!.toLowerCase();
    const path = match[1]!.toLowerCase();
    if (path === 'ap/videos' || path === 'video') return (await repo.listedVideo(id)) ? { kind: 'video', id } : null;
    if (path === 'ap/tweets') return (await repo.shownTweet(id)) ? { kind: 'tweet', id } : null;
    if (path === 'ap/video-comments') return (await repo.commentVideo(id)) ? { kind: 'comment', id } : null;
    return (await repo.localChannel({ id })) ? { kind: 'channel', id } : null;
  }

  /**
   * Another server's `Flag` about our content: one report per object named (a video, tweet or
   * comment across servers, else the channel), from a server we have a tie with (it follows or is followed from here), at most one
   * open per actor and target, and at most {@link MAX_OPEN_REMOTE_REPORTS_PER_HOST} open per host.
   */
  async receiveFlag(repo: FederationRepository, moderation: ModerationRepository, actor: RemoteActorRow, act: Record<string, unknown>): Promise<'reported' | 'ignored'> {
    if (!(await repo.hostKnown(actor.host))) return 'ignored';
    const uris = (Array.isArray(act.object) ? act.object : [act.object]).slice(0, MAX_FLAG_OBJECTS).map(idOf).filter((u): u is string => !!u);
    const targets = [];
    for (const uri of uris) {
      const target = await this.localTarget(repo, uri);
      if (target) targets.push(target);
    }
    // Mastodon names the account and its statuses: the content is reported, the account only when alone.
    const content = targets.filter((t) => t.kind !== 'channel');
    const chosen = content.length > 0 ? content : targets.slice(0, 1);
    const tags = (Array.isArray(act.tag) ? act.tag : []).map((t) => (t && typeof t === 'object' ? (t as { name?: unknown }).name : null));
    const reason = tags.map((n) => (typeof n === 'string' ? FROM_PEERTUBE[n] : undefined)).find((r) => r) ?? 'other';
    const text = typeof act.content === 'string' ? plainText(act.content, REPORT_TEXT_MAX) : '';
    let reported = false;
    for (const t of chosen) {
      const row = { reporterActorId: actor.id, host: actor.host, targetKind: t.kind, targetId: t.id, reason, text };
      if (await moderation.insertRemoteReport(row, MAX_OPEN_REMOTE_REPORTS_PER_HOST)) reported = true;
    }
    return reported ? 'reported' : 'ignored';
  }
}
