import { API_PREFIX, federationMessages as m, type FederationBlock, type RemoteChannel, type RemoteVideo } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound, ApiError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { CaptionsRepository } from '../captions/captions.repository.ts';
import { mediaUrls } from '../media-links/media-links.ts';
import { enqueueDeliveries, keyFor, newActivityId, signerKeyId } from './delivery.ts';
import {
  accountActor,
  activity,
  ACTIVITY_JSON,
  channelActor,
  countedCollection,
  FederationUrls,
  instanceActor,
  nodeinfo,
  tweetNote,
  videoCommentNote,
  videoObject,
  webfinger,
  type ChannelFacts,
} from './documents.ts';
import { FederationRepository, type LocalChannel, type RemoteActorRow } from './federation.repository.ts';
import { signRequest } from './http-signature.ts';
import { httpUrl, parseHandle, parseRemoteActor } from './incoming.ts';
import { RemoteFetchError, safeFetch } from './safe-fetch.ts';

const OUTBOX_ITEMS = 20;
const PAGE_MAX = 50;
/** A stored remote actor is fetched again after this long when it is looked up by its address. */
const ACTOR_REFRESH_MS = 24 * 3600 * 1000;

const unreachable = () => new ApiError(502, m.unreachable);

/** The documents this server answers with, and following channels of other servers. */
export class FederationService {
  readonly urls: FederationUrls;
  private readonly repo: FederationRepository;
  private readonly media;

  constructor(private readonly ctx: AppContext) {
    this.urls = new FederationUrls(ctx.config.publicUrl);
    this.repo = new FederationRepository(ctx.db);
    this.media = mediaUrls(ctx);
  }

  private absolute = (url: string | null) => (url ? this.urls.abs(url) : null);

  private async facts(c: LocalChannel): Promise<ChannelFacts> {
    const key = await keyFor(this.ctx.db, { kind: 'channel', userId: c.id });
    return {
      id: c.id,
      userName: c.userName,
      fullName: c.fullName,
      avatarUrl: this.absolute(c.avatarKey ? this.ctx.storage.url(c.avatarKey) : null),
      coverUrl: this.absolute(c.coverKey ? this.ctx.storage.url(c.coverKey) : null),
      createdAt: c.createdAt,
      publicKeyPem: key.publicKeyPem,
    };
  }

  // --- discovery ----------------------------------------------------------------------------

  /** `acct:name@our-host` (or the channel's actor or page address) -> the JRD; null when it is not ours. */
  async webfinger(resource: string) {
    let userName: string | undefined;
    const acct = /^acct:@?([^@\s]+)@([^@\s]+)$/i.exec(resource);
    if (acct) {
      if (acct[2]!.toLowerCase() !== this.urls.host.toLowerCase()) return null;
      userName = acct[1];
    } else {
      const page = /\/channel\/@([^/?#]+)$/.exec(resource);
      const actor = /\/ap\/channels\/([0-9a-f-]{36})$/.exec(resource);
      if (!resource.startsWith(this.urls.base)) return null;
      if (page) userName = decodeURIComponent(page[1]!);
      else if (actor) {
        const c = await this.repo.localChannel({ id: actor[1]! });
        return c ? webfinger(this.urls, c) : null;
      }
    }
    if (!userName) return null;
    const c = await this.repo.localChannel({ userName });
    return c ? webfinger(this.urls, c) : null;
  }

  async nodeinfo(version: string) {
    const s = await this.ctx.settings.get();
    const { users, videos } = await this.repo.instanceCounts();
    return nodeinfo(this.urls, { name: s.name, version, users, videos, openRegistrations: s.registrationMode === 'open' });
  }

  // --- local actors and objects -------------------------------------------------------------

  async channelDocument(by: { id: string } | { userName: string }) {
    const c = await this.repo.localChannel(by);
    return c ? channelActor(this.urls, await this.facts(c)) : null;
  }

  async accountDocument(id: string) {
    const c = await this.repo.localChannel({ id });
    return c ? accountActor(this.urls, await this.facts(c)) : null;
  }

  async instanceDocument() {
    const key = await keyFor(this.ctx.db, { kind: 'instance' });
    return instanceActor(this.urls, (await this.ctx.settings.get()).name, key.publicKeyPem);
  }

  /** A local comment sent to other servers, as its `Note` (null while it would not be sent). */
  async videoCommentDocument(id: string) {
    const c = await this.repo.sendableComment(id);
    return c ? videoCommentNote(this.urls, c) : null;
  }

  /** The public video as a `Video`; null for anything not listed (unlisted and private never federate). */
  async videoDocument(videoId: string) {
    const row = await this.repo.listedVideo(videoId);
    if (!row) return null;
    const { video: v } = row;
    // Listed: its media carry the public token (ADR 011), the same URLs a visitor gets.
    const file = this.media.forVideo(v.id, v.mediaToken);
    return videoObject(this.urls, {
      id: v.id,
      ownerId: v.ownerId,
      title: v.title,
      description: v.description,
      duration: v.duration,
      views: v.views,
      width: v.width,
      height: v.height,
      commentsEnabled: v.commentsEnabled,
      downloadsEnabled: v.downloadsEnabled,
      publishedAt: v.announcedAt ?? v.createdAt,
      updatedAt: v.updatedAt,
      thumbnailUrl: this.absolute(file(v.thumbnailKey)),
      hlsUrl: this.absolute(file(v.hlsKey)),
      mp4: await this.progressiveFile(v),
      captions: (await new CaptionsRepository(this.ctx.db).list(v.id)).flatMap((c) => {
        const url = this.absolute(file(c.storageKey));
        return url ? [{ lang: c.lang, label: c.label, url }] : [];
      }),
    });
  }

  /**
   * The progressive mp4 as a file Link: the playing route anyone who may see the video uses, its
   * byte size read from storage (no column keeps it; the feeds' enclosures read it the same way),
   * its height the rung it copies (the highest up to 720p, packages/media `progressiveRendition`).
   */
  private async progressiveFile(v: { id: string; progressiveKey: string | null; renditionsReady: string[]; height: number | null }) {
    if (!v.progressiveKey) return null;
    const size = await this.ctx.storage.bytesUnder(v.progressiveKey);
    if (size <= 0) return null;
    const rungs = v.renditionsReady.map((r) => Number.parseInt(r, 10)).filter((n) => Number.isFinite(n) && n > 0);
    const upTo720 = rungs.filter((n) => n <= 720);
    const height = upTo720.length > 0 ? Math.max(...upTo720) : rungs.length > 0 ? Math.min(...rungs) : Math.min(v.height ?? 0, 720);
    return { url: this.urls.abs(`${API_PREFIX}/videos/video/${v.id}.mp4`), size, height };
  }

  async tweetDocument(tweetId: string) {
    const tweet = await this.repo.shownTweet(tweetId);
    return tweet ? tweetNote(this.urls, tweet) : null;
  }

  async outbox(userId: string) {
    const c = await this.repo.localChannel({ id: userId });
    if (!c) return null;
    const id = this.urls.channel(userId);
    const items = [];
    for (const videoId of await this.repo.latestListedVideoIds(userId, OUTBOX_ITEMS)) {
      const video = await this.videoDocument(videoId);
      if (video) items.push({ type: 'Create', id: `${video.id}/activity`, actor: id, object: video, to: video.to, cc: video.cc });
    }
    return countedCollection(`${id}/outbox`, await this.repo.countListedVideos(userId), items);
  }

  async followers(userId: string) {
    const c = await this.repo.localChannel({ id: userId });
    return c ? countedCollection(`${this.urls.channel(userId)}/followers`, c.subscriberCount) : null;
  }

  async following(userId: string) {
    const c = await this.repo.localChannel({ id: userId });
    return c ? countedCollection(`${this.urls.channel(userId)}/following`, await this.repo.countFollowing(userId)) : null;
  }

  // --- other servers ------------------------------------------------------------------------

  /** A GET of a remote document as JSON, signed by the instance actor (servers in authorised-fetch mode ask for it). */
  async fetchJson(url: URL, accept = ACTIVITY_JSON): Promise<unknown> {
    const key = await keyFor(this.ctx.db, { kind: 'instance' });
    const headers = signRequest({ method: 'GET', url, keyId: signerKeyId(this.urls, { kind: 'instance' }), privateKeyPem: key.privateKeyPem });
    const res = await safeFetch(url, { headers: { ...headers, accept }, allowPrivate: this.ctx.config.federation.allowPrivateAddresses });
    if (res.status === 404 || res.status === 410) throw notFound(m.notFound);
    if (res.status < 200 || res.status >= 300) throw new RemoteFetchError(`${url.host} answered ${res.status}`, res.status);
    try {
      return JSON.parse(res.body);
    } catch {
      throw new RemoteFetchError(`${url.host} did not answer JSON`);
    }
  }

  /** The actor at this address, fetched (and stored) unless a fresh copy is stored. */
  async resolveActor(uri: string, opts: { refresh?: boolean } = {}): Promise<RemoteActorRow> {
    const url = httpUrl(uri);
    if (!url) throw badRequest(m.badHandle);
    url.hash = '';
    if (url.host === this.urls.host) throw badRequest(m.local);
    if (await this.repo.isBlocked(url.host)) throw forbidden(m.blocked);
    const stored = await this.repo.remoteActorByUri(url.toString());
    if (stored && !opts.refresh && Date.now() - stored.fetchedAt.getTime() < ACTOR_REFRESH_MS) return stored;
    const doc = await this.fetchJson(url);
    const actor = parseRemoteActor(doc, url, newId);
    if (!actor) throw notFound(m.notFound);
    return this.repo.upsertRemoteActor(actor);
  }

  /** `@name@host`, `name@host` or an address -> the remote actor (WebFinger on its host, as Mastodon and PeerTube do). */
  async resolveHandle(handle: string): Promise<RemoteActorRow> {
    const text = handle.trim();
    if (/^https?:\/\//i.test(text)) return this.resolveActor(text);
    const parsed = parseHandle(text);
    if (!parsed) throw badRequest(m.badHandle);
    const { name, host } = parsed;
    if (host === this.urls.host.toLowerCase()) throw badRequest(m.local);
    if (await this.repo.isBlocked(host)) throw forbidden(m.blocked);
    // Our own scheme: an https server is asked over https; a test pair on http loopback over http.
    const scheme = new URL(this.urls.base).protocol;
    const wf = new URL(`${scheme}//${host}/.well-known/webfinger`);
    wf.searchParams.set('resource', `acct:${name}@${host}`);
    const jrd = (await this.fetchJson(wf, 'application/jrd+json, application/json')) as { links?: { rel?: string; type?: string; href?: string }[] };
    const self = jrd?.links?.find((l) => l.rel === 'self' && (l.type === ACTIVITY_JSON || l.type?.startsWith('application/ld+json')));
    if (!self?.href) throw notFound(m.notFound);
    const actor = await this.resolveActor(self.href);
    if (actor.host.toLowerCase() !== host) throw notFound(m.notFound);
    if (await this.repo.isBlocked(actor.host, actor.uri)) throw forbidden(m.blocked);
    return actor;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    if (!this.ctx.config.federation.enabled) throw new ApiError(403, m.disabled);
    try {
      return await work();
    } catch (err) {
      // The other server's failure (refused address, timeout, DNS, bad answer) is a 502; ours stays a 500.
      const network = err instanceof RemoteFetchError || (err instanceof Error && 'code' in err && typeof err.code === 'string' && /^(E[A-Z]+|ERR_)/.test(err.code));
      if (network) throw unreachable();
      throw err;
    }
  }

  /** The user follows a remote channel: stored as pending, a Follow from the user's account goes to its inbox. */
  async followRemote(userId: string, handle: string): Promise<RemoteChannel> {
    return this.guard(async () => {
      const actor = await this.resolveHandle(handle);
      const me = this.urls.account(userId);
      await this.ctx.db.transaction(async (tx) => {
        const repo = new FederationRepository(tx);
        const followId = newActivityId(this.urls, 'follow');
        const row = await repo.follow(userId, actor.id, followId);
        // Sent again while pending (the first may have been lost); an accepted follow is left alone.
        if (row.state === 'pending')
          await enqueueDeliveries(tx, [actor.inbox], activity('Follow', row.followId, me, actor.uri, { to: [actor.uri] }), { kind: 'account', userId });
      });
      return this.remoteChannel(actor, userId);
    });
  }

  async unfollowRemote(userId: string, actorId: string): Promise<void> {
    const actor = await this.repo.remoteActor(actorId);
    if (!actor) throw notFound(m.notFound);
    await this.ctx.db.transaction(async (tx) => {
      const followId = await new FederationRepository(tx).unfollow(userId, actorId);
      if (!followId) return;
      const me = this.urls.account(userId);
      const follow = { type: 'Follow', id: followId, actor: me, object: actor.uri };
      await enqueueDeliveries(tx, [actor.inbox], activity('Undo', `${followId}/undo`, me, follow, { to: [actor.uri] }), { kind: 'account', userId });
    });
  }

  async remoteChannel(actor: RemoteActorRow, viewerId: string | null): Promise<RemoteChannel> {
    return {
      _id: actor.id,
      handle: `@${actor.preferredUsername}@${actor.host}`,
      name: actor.name,
      summary: actor.summary,
      host: actor.host,
      url: actor.url,
      avatar: actor.iconUrl ? { url: actor.iconUrl } : null,
      following: viewerId ? await this.repo.followState(viewerId, actor.id) : 'none',
    };
  }

  async remoteChannelPage(actorId: string, viewerId: string | null) {
    const actor = await this.repo.remoteActor(actorId);
    if (!actor) throw notFound(m.notFound);
    const rows = await this.repo.remoteChannelVideos(actorId, PAGE_MAX);
    return { channel: await this.remoteChannel(actor, viewerId), videos: rows.map(toRemoteVideo) };
  }

  /** The user's like or dislike of a remote video, sent to its channel's server (an earlier one is undone first). */
  async rateRemote(userId: string, remoteVideoId: string, rating: 'like' | 'dislike' | 'none'): Promise<{ rating: typeof rating }> {
    const row = await this.repo.remoteVideoWithActor(remoteVideoId);
    if (!row) throw notFound(m.videoNotFound);
    const { video, actor } = row;
    const me = this.urls.account(userId);
    const signer = { kind: 'account', userId } as const;
    const audience = { to: [actor.uri] };
    await this.ctx.db.transaction(async (tx) => {
      const repo = new FederationRepository(tx);
      const value: 1 | -1 | 0 = rating === 'like' ? 1 : rating === 'dislike' ? -1 : 0;
      // The same rating again sends nothing (the first is on its way).
      if (((await repo.userRate(userId, video.id))?.value ?? 0) === value) return;
      const next = value === 0 ? null : { value, activityId: newActivityId(this.urls, rating) };
      const old = await repo.setUserRate(userId, video.id, next);
      const activities = [];
      if (old) {
        const undone = { type: old.value === 1 ? 'Like' : 'Dislike', id: old.activityId, actor: me, object: video.uri };
        activities.push(activity('Undo', `${old.activityId}/undo`, me, undone, audience));
      }
      if (next) activities.push(activity(next.value === 1 ? 'Like' : 'Dislike', next.activityId, me, video.uri, audience));
      for (const act of activities) await enqueueDeliveries(tx, [actor.inbox], act, signer);
    });
    return { rating };
  }

  // --- blocks (admins) ----------------------------------------------------------------------

  async blocks(): Promise<FederationBlock[]> {
    return (await this.repo.listBlocks()).map((b) => ({ target: b.target, kind: b.kind, createdAt: b.createdAt.toISOString() }));
  }

  /**
   * Blocks a host (`example.org`) or a remote account (`@name@host` as stored, or its address): no
   * delivery to it, nothing accepted from it, and what we kept of it is forgotten.
   */
  async block(adminId: string, target: string): Promise<FederationBlock> {
    const text = target.trim();
    let block: { target: string; kind: 'host' | 'actor' };
    if (/^https?:\/\//i.test(text)) {
      const url = httpUrl(text);
      if (!url) throw badRequest(m.badBlockTarget);
      url.hash = '';
      block = { target: url.toString(), kind: 'actor' };
    } else if (text.includes('@')) {
      const handle = parseHandle(text);
      if (!handle) throw badRequest(m.badBlockTarget);
      const actor = await this.repo.remoteActorByHandle(handle.name, handle.host);
      if (!actor) throw notFound(m.unknownAccount);
      block = { target: actor.uri, kind: 'actor' };
    } else if (/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/.test(text)) {
      block = { target: text.toLowerCase(), kind: 'host' };
    } else throw badRequest(m.badBlockTarget);
    if (block.target === this.urls.host.toLowerCase() || (block.kind === 'actor' && new URL(block.target).host === this.urls.host)) throw badRequest(m.badBlockTarget);
    await this.ctx.db.transaction(async (tx) => {
      const repo = new FederationRepository(tx);
      await repo.addBlock(block.target, block.kind, adminId);
      await repo.purgeActors(block.kind === 'host' ? { host: block.target } : { uri: block.target });
    });
    return (await this.blocks()).find((b) => b.target === block.target)!;
  }

  policy() {
    return this.repo.policy();
  }

  /** Open, or allow-list: then nothing is delivered to or accepted from a host not on the list (what we kept stays). */
  async setMode(mode: 'open' | 'allowlist') {
    await this.repo.setMode(mode);
    return this.repo.policy();
  }

  async allowHost(adminId: string, host: string) {
    await this.repo.allowHost(host, adminId);
    return this.repo.policy();
  }

  async disallowHost(host: string) {
    if (!(await this.repo.disallowHost(host))) throw notFound(m.hostNotAllowed);
    return this.repo.policy();
  }

  async unblock(target: string): Promise<void> {
    if (!(await this.repo.removeBlock(target.trim()))) throw notFound(m.blockNotFound);
  }

  async remoteVideo(id: string): Promise<RemoteVideo> {
    const row = await this.repo.remoteVideoWithActor(id);
    if (!row) throw notFound(m.videoNotFound);
    return toRemoteVideo(row);
  }

  async remoteFeed(userId: string, page: number, limit: number) {
    const rows = await this.repo.remoteFeed(userId, limit, (page - 1) * limit);
    return { videos: rows.map(toRemoteVideo), page, limit };
  }
}

function toRemoteVideo(r: { video: { id: string; name: string; content: string; duration: number; thumbnailUrl: string | null; hlsUrl: string | null; pageUrl: string; publishedAt: Date }; actor: RemoteActorRow }): RemoteVideo {
  return {
    _id: r.video.id,
    title: r.video.name,
    description: r.video.content,
    duration: r.video.duration,
    thumbnail: r.video.thumbnailUrl ? { url: r.video.thumbnailUrl } : null,
    hlsUrl: r.video.hlsUrl,
    originalUrl: r.video.pageUrl,
    fromHost: r.actor.host,
    channel: { _id: r.actor.id, handle: `@${r.actor.preferredUsername}@${r.actor.host}`, name: r.actor.name, host: r.actor.host },
    publishedAt: r.video.publishedAt.toISOString(),
  };
}
