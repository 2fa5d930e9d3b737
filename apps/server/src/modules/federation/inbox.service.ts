import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import { newId, isUuid } from '../../lib/ids.ts';
import { enqueueDeliveries, newActivityId } from './delivery.ts';
import { activity, FederationUrls } from './documents.ts';
import { ModerationRepository } from '../moderation/moderation.repository.ts';
import { FederatedComments } from './federated-comments.ts';
import { FederatedModeration } from './federated-moderation.ts';
import { FederationRepository, type RemoteActorRow } from './federation.repository.ts';
import type { FederationService } from './federation.service.ts';
import { parseSignatureHeader, verifyRequest } from './http-signature.ts';
import { httpUrl, idOf, parseRemoteVideo } from './incoming.ts';
import { remoteMediaOrigins } from './media-origins.ts';

export interface InboxRequest {
  method: string;
  /** The path and query as sent (the signed request target). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export const inboxMessages = {
  unsigned: 'A signed request is required',
  badSignature: 'The signature does not verify',
  badActivity: 'Not an activity this server understands',
  notActor: 'The activity is not from the key that signed it',
  foreignObject: 'The object does not belong to the sender',
  replay: 'Activity already received',
  unknownKey: 'The signing key could not be fetched',
  blocked: 'This server or account is blocked here',
} as const;

const refuse = (status: number, message: string) => new ApiError(status, message);

/** A stored key is fetched again on a failed signature at most this often per actor (a forger cannot make us fetch on every request). */
const KEY_REFETCH_AFTER_MS = 10 * 60 * 1000;

/** Days an activity id is remembered (a replay older than the Date skew is refused by its Date anyway). */
export const SEEN_DAYS = 7;

/**
 * The inbox (ARCHITECTURE §14): verifies, then applies one activity in a transaction with its id, so
 * a replay or a half-applied activity cannot happen. Refusals are 4xx with nothing stored.
 */
export class InboxService {
  private readonly urls: FederationUrls;
  private readonly repo: FederationRepository;
  private readonly comments: FederatedComments;
  private readonly moderation: FederatedModeration;

  constructor(
    private readonly ctx: AppContext,
    private readonly federation: FederationService,
  ) {
    this.urls = new FederationUrls(ctx.config.publicUrl);
    this.repo = new FederationRepository(ctx.db);
    this.comments = new FederatedComments(ctx);
    this.moderation = new FederatedModeration(ctx);
  }

  /** Who signed the request: the stored actor of the key (unless `refetch`), else the actor fetched from the key's address. */
  private async signer(keyId: string, refetch = false): Promise<{ actor: RemoteActorRow; fetched: boolean }> {
    const known = refetch ? undefined : await this.repo.remoteActorByKeyId(keyId);
    if (known) return { actor: known, fetched: false };
    const url = httpUrl(keyId);
    if (!url) throw refuse(401, inboxMessages.unsigned);
    try {
      const actor = await this.federation.resolveActor(url.toString(), { refresh: true });
      if (actor.publicKeyId !== keyId) throw refuse(401, inboxMessages.unknownKey);
      return { actor, fetched: true };
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 401) throw err;
      throw refuse(401, inboxMessages.unknownKey);
    }
  }

  async receive(req: InboxRequest): Promise<{ status: number; result: string }> {
    const params = parseSignatureHeader(typeof req.headers.signature === 'string' ? req.headers.signature : undefined);
    if (!params) throw refuse(401, inboxMessages.unsigned);
    // A blocked host is refused before anything is fetched from it; a blocked account once known.
    const keyHost = httpUrl(params.keyId)?.host;
    if (!keyHost || (await this.repo.isBlocked(keyHost))) throw refuse(403, inboxMessages.blocked);
    const signed = { method: req.method, path: req.path, headers: req.headers, body: req.body };
    let { actor, fetched } = await this.signer(params.keyId);
    let problem = verifyRequest(signed, params, actor.publicKeyPem);
    // A stored key that no longer verifies may have been rotated: fetched again once, as Mastodon does.
    if (problem === 'bad signature' && !fetched && Date.now() - actor.fetchedAt.getTime() > KEY_REFETCH_AFTER_MS) {
      ({ actor, fetched } = await this.signer(params.keyId, true));
      problem = verifyRequest(signed, params, actor.publicKeyPem);
    }
    if (problem) throw refuse(401, `${inboxMessages.badSignature} (${problem})`);
    if (await this.repo.isBlocked(actor.host, actor.uri)) throw refuse(403, inboxMessages.blocked);

    let act: Record<string, unknown>;
    try {
      act = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw refuse(400, inboxMessages.badActivity);
    }
    if (!act || typeof act !== 'object' || typeof act.type !== 'string') throw refuse(400, inboxMessages.badActivity);
    const id = httpUrl(act.id);
    if (!id || id.toString().length > 2000) throw refuse(400, inboxMessages.badActivity);
    // The signer is the activity's actor, and the activity lives on the actor's server (Mastodon and PeerTube check both).
    if (idOf(act.actor) !== actor.uri) throw refuse(403, inboxMessages.notActor);
    if (id.host !== actor.host) throw refuse(403, inboxMessages.foreignObject);

    const watched = await this.comments.watchedWords();
    const result = await this.ctx.db.transaction(async (tx) => {
      const repo = new FederationRepository(tx);
      if (!(await repo.markSeen(id.toString()))) throw refuse(409, inboxMessages.replay);
      return this.apply(repo, tx, actor, act, watched);
    });
    // A stored video may bring a new media origin: the CSP allows it from the next page on.
    if (result === 'stored') await remoteMediaOrigins(this.ctx.db).refresh();
    return { status: 202, result };
  }

  private async apply(
    repo: FederationRepository,
    tx: Executor,
    actor: RemoteActorRow,
    act: Record<string, unknown>,
    watched: (content: string) => boolean,
  ): Promise<string> {
    const object = act.object;
    switch (act.type) {
      case 'Follow': {
        const channelId = this.localChannelId(idOf(object));
        const channel = channelId ? await repo.localChannel({ id: channelId }) : undefined;
        if (!channel) throw refuse(404, 'No such channel here');
        if (await repo.addFollower(channel.id, actor.id, String(act.id))) await repo.bumpSubscribers(channel.id, 1);
        const me = this.urls.channel(channel.id);
        const follow = { type: 'Follow', id: act.id, actor: actor.uri, object: me };
        await enqueueDeliveries(tx, [actor.inbox], activity('Accept', newActivityId(this.urls, 'accept'), me, follow, { to: [actor.uri] }), {
          kind: 'channel',
          userId: channel.id,
        });
        return 'followed';
      }
      case 'Like':
      case 'Dislike': {
        const videoId = this.localVideoId(idOf(object));
        if (!videoId || !(await repo.listedVideo(videoId))) throw refuse(404, 'No such video here');
        await repo.rateLocalVideo(videoId, actor.id, act.type === 'Like' ? 1 : -1, String(act.id));
        return act.type.toLowerCase();
      }
      case 'Undo': {
        const inner = object as Record<string, unknown> | null;
        if (inner?.type === 'Like' || inner?.type === 'Dislike') {
          const videoId = this.localVideoId(idOf(inner.object)) ?? (await repo.localRateByActivity(actor.id, idOf(inner) ?? ''));
          if (videoId) await repo.rateLocalVideo(videoId, actor.id, 0, String(act.id));
          return 'unrated';
        }
        if (inner?.type === 'Announce') {
          const videoId = this.localVideoId(idOf(inner.object));
          const removed = await repo.removeShare(actor.id, videoId ? { videoId } : { activityId: idOf(inner) ?? '' });
          return removed ? 'unshared' : 'ignored';
        }
        if (inner?.type === 'Follow' || typeof object === 'string') {
          const followId = idOf(object);
          const channelId = followId ? await repo.followerChannelByFollowId(actor.id, followId) : undefined;
          const target = channelId ?? this.localChannelId(idOf(inner?.object));
          if (target && (await repo.removeFollower(target, actor.id))) await repo.bumpSubscribers(target, -1);
          return 'unfollowed';
        }
        return 'ignored';
      }
      case 'Accept':
      case 'Reject': {
        const followId = idOf(object);
        if (!followId) throw refuse(400, inboxMessages.badActivity);
        const changed = await repo.setFollowState(actor.id, followId, act.type === 'Accept' ? 'accepted' : null);
        return changed ? act.type.toLowerCase() : 'ignored';
      }
      case 'Create':
      case 'Update': {
        if (act.type === 'Create' && object && typeof object === 'object' && (object as { type?: unknown }).type === 'Note') {
          const result = await this.comments.receive(repo, actor, object as Record<string, unknown>, watched);
          if (result === null) throw refuse(403, inboxMessages.foreignObject);
          return result;
        }
        if (!object || typeof object !== 'object' || (object as { type?: unknown }).type !== 'Video') return 'ignored';
        const video = parseRemoteVideo(object, actor, newId);
        if (!video) throw refuse(403, inboxMessages.foreignObject);
        // Only what someone here follows is kept, under the followed channel: the sender itself, or
        // (PeerTube sends a channel's videos from its account) a channel of the same server it is attributed to.
        const attributed = (Array.isArray((object as { attributedTo?: unknown }).attributedTo) ? (object as { attributedTo: unknown[] }).attributedTo : [])
          .map(idOf)
          .filter((uri): uri is string => !!uri && httpUrl(uri)?.host === actor.host);
        const channel = await repo.followedActorAmong([actor.uri, ...attributed]);
        if (!channel) return 'not followed';
        await repo.upsertRemoteVideo({ ...video, actorId: channel });
        return 'stored';
      }
      case 'Delete': {
        const target = httpUrl(idOf(object));
        if (!target) throw refuse(400, inboxMessages.badActivity);
        if (target.host !== actor.host) throw refuse(403, inboxMessages.foreignObject);
        // An account deleted on its server (Delete of the actor itself): forgotten here with what it did.
        if (target.toString() === actor.uri) {
          await repo.purgeActors({ uri: actor.uri });
          return 'actor deleted';
        }
        if (await repo.deleteRemoteVideo(target.toString(), actor.host)) return 'deleted';
        return (await repo.deleteCommentByUri(target.toString(), actor.id)) ? 'deleted' : 'ignored';
      }
      case 'Announce': {
        // A share of one of our listed videos is kept (one per actor); Announces of anything else are not.
        const videoId = this.localVideoId(idOf(object));
        if (!videoId || !(await repo.listedVideo(videoId))) return 'ignored';
        await repo.addShare(videoId, actor.id, String(act.id));
        return 'shared';
      }
      case 'Flag':
        return this.moderation.receiveFlag(repo, new ModerationRepository(tx), actor, act);
      default:
        return 'ignored';
    }
  }

  /** The local user id in one of our channel actor addresses, or null. */
  private localChannelId(uri: string | null): string | null {
    return this.localId(uri, `${this.urls.base}/ap/channels/`);
  }

  /** The local video id in its object address (or its page's, which PeerTube may name), or null. */
  private localVideoId(uri: string | null): string | null {
    return this.localId(uri, `${this.urls.base}/ap/videos/`) ?? this.localId(uri, `${this.urls.base}/video/`);
  }

  private localId(uri: string | null, prefix: string): string | null {
    if (!uri?.startsWith(prefix)) return null;
    const id = uri.slice(prefix.length).toLowerCase();
    return isUuid(id) ? id : null;
  }
}
