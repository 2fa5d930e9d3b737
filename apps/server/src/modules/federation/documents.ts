/**
 * The JSON-LD documents Glimpse serves and sends (ADR 023, docs/federation.md): compacted, with the
 * contexts PeerTube and Mastodon use, shaped so PeerTube's validators
 * (server/core/helpers/custom-validators/activitypub/{actor,videos,misc}.ts) accept them.
 */

export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
export const ACTIVITY_JSON = 'application/activity+json';

export const AP_CONTEXT = [
  'https://www.w3.org/ns/activitystreams',
  'https://w3id.org/security/v1',
  { pt: 'https://joinpeertube.org/ns#', sc: 'http://schema.org/', uuid: 'sc:identifier', state: 'pt:state', commentsEnabled: 'pt:commentsEnabled', downloadEnabled: 'pt:downloadEnabled', waitTranscoding: 'pt:waitTranscoding', sensitive: 'as:sensitive' },
] as const;

/** Every id and address of this server's actors and objects, from PUBLIC_URL. */
export class FederationUrls {
  readonly host: string;
  constructor(readonly base: string) {
    this.host = new URL(base).host;
  }
  abs = (path: string): string => new URL(path, `${this.base}/`).toString();
  channel = (userId: string) => `${this.base}/ap/channels/${userId}`;
  account = (userId: string) => `${this.base}/ap/accounts/${userId}`;
  instance = () => `${this.base}/ap/actor`;
  sharedInbox = () => `${this.base}/ap/inbox`;
  video = (videoId: string) => `${this.base}/ap/videos/${videoId}`;
  activity = (kind: string, id: string) => `${this.base}/ap/activities/${kind}/${id}`;
  tweet = (tweetId: string) => `${this.base}/ap/tweets/${tweetId}`;
  /** A comment of the comments module (`/ap/comments/{id}` names a comment across servers). */
  videoComment = (commentId: string) => `${this.base}/ap/video-comments/${commentId}`;
  tweetPage = (tweetId: string) => `${this.base}/tweet/${tweetId}`;
  channelPage = (userName: string) => `${this.base}/channel/@${encodeURIComponent(userName)}`;
  videoPage = (videoId: string) => `${this.base}/video/${videoId}`;
  keyId = (actorUri: string) => `${actorUri}#main-key`;
}

export interface ChannelFacts {
  id: string;
  userName: string;
  fullName: string;
  avatarUrl: string | null;
  coverUrl: string | null;
  createdAt: Date;
  publicKeyPem: string;
}

const image = (url: string, mediaType = 'image/jpeg', width = 400, height = 400) => ({ type: 'Image', url, mediaType, width, height });
const imageType = (url: string) => (url.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg');

/** What a channel's `Group` and its account's `Person` share: names, page, inbox and collections, key, icon. */
function userActor(u: FederationUrls, c: ChannelFacts, type: 'Group' | 'Person', id: string) {
  return {
    '@context': AP_CONTEXT,
    type,
    id,
    preferredUsername: c.userName,
    name: c.fullName,
    summary: null,
    url: [{ type: 'Link', mediaType: 'text/html', href: u.channelPage(c.userName) }],
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    endpoints: { sharedInbox: u.sharedInbox() },
    published: c.createdAt.toISOString(),
    publicKey: { id: u.keyId(id), owner: id, publicKeyPem: c.publicKeyPem },
    ...(c.avatarUrl ? { icon: [image(c.avatarUrl, imageType(c.avatarUrl))] } : {}),
  };
}

/** A channel as a `Group` (PeerTube's channels; Mastodon follows Groups), attributed to its account. */
export function channelActor(u: FederationUrls, c: ChannelFacts) {
  return {
    ...userActor(u, c, 'Group', u.channel(c.id)),
    // PeerTube drops a Group without attributedTo (actor.ts: sanitizeAndCheckActorObject).
    attributedTo: [{ type: 'Person', id: u.account(c.id) }],
    manuallyApprovesFollowers: false,
    discoverable: true,
    ...(c.coverUrl ? { image: image(c.coverUrl, imageType(c.coverUrl), 1920, 317) } : {}),
  };
}

/** The account behind a channel, as the `Person` PeerTube expects a Group to be attributed to. */
export function accountActor(u: FederationUrls, c: ChannelFacts) {
  return userActor(u, c, 'Person', u.account(c.id));
}

/** The instance actor (`Application`): signs our GETs, as PeerTube's and Mastodon's do. */
export function instanceActor(u: FederationUrls, name: string, publicKeyPem: string) {
  const id = u.instance();
  return {
    '@context': AP_CONTEXT,
    type: 'Application',
    id,
    preferredUsername: u.host.replace(/[^A-Za-z0-9\-_.]/g, '_'),
    name,
    url: [{ type: 'Link', mediaType: 'text/html', href: `${u.base}/` }],
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    endpoints: { sharedInbox: u.sharedInbox() },
    publicKey: { id: u.keyId(id), owner: id, publicKeyPem },
  };
}

/** WebFinger's answer (RFC 7033) with the links PeerTube (self as activity+json) and Mastodon (self, profile page, subscribe template) follow. */
export function webfinger(u: FederationUrls, c: { id: string; userName: string }) {
  return {
    subject: `acct:${c.userName}@${u.host}`,
    aliases: [u.channel(c.id), u.channelPage(c.userName)],
    links: [
      { rel: 'self', type: ACTIVITY_JSON, href: u.channel(c.id) },
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: u.channelPage(c.userName) },
    ],
  };
}

export function nodeinfo(u: FederationUrls, s: { name: string; version: string; users: number; videos: number; openRegistrations: boolean }) {
  return {
    version: '2.0',
    software: { name: 'glimpse', version: s.version },
    protocols: ['activitypub'],
    services: { inbound: [], outbound: ['atom1.0', 'rss2.0'] },
    openRegistrations: s.openRegistrations,
    usage: { users: { total: s.users }, localPosts: s.videos },
    metadata: { nodeName: s.name, nodeUrl: u.base },
  };
}

export interface VideoFacts {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  duration: number;
  views: number;
  width: number | null;
  height: number | null;
  commentsEnabled: boolean;
  downloadsEnabled: boolean;
  publishedAt: Date;
  updatedAt: Date;
  thumbnailUrl: string | null;
  hlsUrl: string | null;
  /** The progressive mp4 with its byte size and height (its rung), when the video has one. */
  mp4: { url: string; size: number; height: number } | null;
  /** The caption tracks (BCP 47 tag, label, absolute WebVTT address). Glimpse keeps no licence, language, category or tags. */
  captions: { lang: string; label: string; url: string }[];
}

/**
 * A public video as PeerTube's `Video` (videos.ts: sanitizeAndCheckVideoTorrentObject): name, uuid,
 * `PT<n>S` duration, views, published/updated, markdown content, at least one icon, `url` Links
 * (the page, HLS with its `tag` array, and the progressive mp4 with the `height` and byte `size`
 * PeerTube's `isRemoteVideoUrlValid` requires of a file Link), attributedTo the account and the channel; to Public, cc the followers;
 * the captions as `subtitleLanguage`.
 * Mastodon shows it as a post with `name`, `content`, the page link and the icon.
 */
export function videoObject(u: FederationUrls, v: VideoFacts) {
  const height = v.height ?? 0;
  const urls: object[] = [{ type: 'Link', mediaType: 'text/html', href: u.videoPage(v.id) }];
  if (v.hlsUrl) urls.push({ type: 'Link', mediaType: 'application/x-mpegURL', href: v.hlsUrl, tag: [] });
  if (v.mp4) urls.push({ type: 'Link', mediaType: 'video/mp4', href: v.mp4.url, height: v.mp4.height, size: v.mp4.size });
  return {
    type: 'Video',
    id: u.video(v.id),
    name: v.title,
    duration: `PT${Math.max(0, Math.round(v.duration))}S`,
    uuid: v.id,
    views: v.views,
    sensitive: false,
    waitTranscoding: false,
    state: 1,
    commentsEnabled: v.commentsEnabled,
    downloadEnabled: v.downloadsEnabled,
    published: v.publishedAt.toISOString(),
    updated: v.updatedAt.toISOString(),
    mediaType: 'text/markdown',
    content: v.description,
    tag: [],
    // PeerTube's `{ identifier, name }` with the track's `url` as one string: PeerTube 6 reads a
    // string, PeerTube 7 (setValidRemoteCaptions) turns it into a `text/vtt` Link.
    subtitleLanguage: v.captions.map((c) => ({ identifier: c.lang, name: c.label, url: c.url })),
    icon: v.thumbnailUrl ? [image(v.thumbnailUrl, imageType(v.thumbnailUrl), v.width ?? 1280, height || 720)] : [],
    url: urls,
    attributedTo: [
      { type: 'Person', id: u.account(v.ownerId) },
      { type: 'Group', id: u.channel(v.ownerId) },
    ],
    to: [AS_PUBLIC],
    cc: [`${u.channel(v.ownerId)}/followers`],
  };
}

export const withContext = <T extends object>(doc: T) => ({ '@context': AP_CONTEXT, ...doc });

export function activity(type: string, id: string, actor: string, object: unknown, audience: { to: string[]; cc?: string[] }) {
  return { '@context': AP_CONTEXT, type, id, actor, object, to: audience.to, ...(audience.cc ? { cc: audience.cc } : {}) };
}

/** An OrderedCollection with its count only (followers and following are not listed, as Mastodon does when hidden). */
export function countedCollection(id: string, totalItems: number, orderedItems?: unknown[]) {
  return { '@context': AP_CONTEXT, type: 'OrderedCollection', id, totalItems, ...(orderedItems ? { orderedItems } : {}) };
}

export interface NoteFacts {
  uri: string;
  authorUserId: string;
  inReplyTo: string;
  content: string;
  publishedAt: Date;
  /** Who else is told: the video's channel, the author answered (their actor URIs). */
  cc: string[];
}

/**
 * A comment as a `Note` (PeerTube's video-comments.ts: sanitizeAndCheckVideoCommentObject): http(s)
 * id and url, non-empty content, inReplyTo the video or the comment answered, published, and
 * Public in `to` (PeerTube accepts public comments only). Mastodon shows it as a reply.
 */
export function noteObject(u: FederationUrls, n: NoteFacts) {
  return {
    type: 'Note',
    id: n.uri,
    url: n.uri,
    attributedTo: u.account(n.authorUserId),
    inReplyTo: n.inReplyTo,
    content: n.content,
    mediaType: 'text/html',
    published: n.publishedAt.toISOString(),
    to: [AS_PUBLIC],
    cc: n.cc,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Plain text written here as the HTML a Note carries: escaped, paragraphs and line breaks kept. */
export const textToHtml = (text: string): string => `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;

/** A tweet as a `Note` from its channel, to Public and the channel's followers (Mastodon shows it as a post). */
export function tweetNote(u: FederationUrls, t: { id: string; ownerId: string; content: string; createdAt: Date }) {
  const channel = u.channel(t.ownerId);
  return {
    type: 'Note',
    id: u.tweet(t.id),
    url: u.tweetPage(t.id),
    attributedTo: channel,
    content: textToHtml(t.content),
    mediaType: 'text/html',
    published: t.createdAt.toISOString(),
    to: [AS_PUBLIC],
    cc: [`${channel}/followers`],
  };
}

/**
 * A local comment on a federated video as the `Note` of its author's `Person`: answering the video,
 * or the comment it replies to; to Public, cc the channel's followers (the servers it goes to).
 */
export function videoCommentNote(u: FederationUrls, c: { id: string; authorId: string; parentId: string | null; videoId: string; channelId: string; content: string; createdAt: Date }) {
  return noteObject(u, {
    uri: u.videoComment(c.id),
    authorUserId: c.authorId,
    inReplyTo: c.parentId ? u.videoComment(c.parentId) : u.video(c.videoId),
    content: textToHtml(c.content),
    publishedAt: c.createdAt,
    cc: [`${u.channel(c.channelId)}/followers`],
  });
}
