import sanitizeHtml from 'sanitize-html';
import type { RemoteActorInput, RemoteVideoInput } from './federation.repository.ts';

/**
 * Reading what other servers send: plain JSON checked field by field (ADR 023), every text field
 * sanitised before it is stored. What does not pass is refused whole.
 */

const MAX_URL = 2000;
const MAX_NAME = 200;
const MAX_TEXT = 10_000;

/** Only what Mastodon and PeerTube themselves keep in remote HTML: text formatting and links. */
export function sanitiseHtml(html: string): string {
  return sanitizeHtml(withoutNul(html).slice(0, MAX_TEXT * 2), {
    allowedTags: ['p', 'br', 'a', 'span', 'strong', 'b', 'em', 'i', 'u', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li'],
    allowedAttributes: { a: ['href', 'rel', 'class'], span: ['class'] },
    allowedSchemes: ['http', 'https'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer', target: '_blank' }) },
  }).slice(0, MAX_TEXT);
}

/** Plain text (names): tags dropped, entities kept as text. */
export const plainText = (s: string, max = MAX_NAME): string => sanitizeHtml(withoutNul(s), { allowedTags: [], allowedAttributes: {} }).trim().slice(0, max);

/** PostgreSQL's text holds no NUL character (the insert fails), and no reader needs one. */
const withoutNul = (s: string): string => s.replaceAll('\u0000', '');

/**
 * A remote object's time (`published`, `updated`) in ms, or null when it is not one: not before
 * 1970, and never later than now (a date in the future would keep a video on top of the feeds;
 * one past PostgreSQL's range would fail the insert).
 */
export function remoteTime(value: unknown): number | null {
  const time = Date.parse(typeof value === 'string' ? value : '');
  return Number.isFinite(time) && time >= 0 ? Math.min(time, Date.now()) : null;
}

/**
 * A host as DNS names and IP literals are written once parsed (IDNs in punycode). The URL parser
 * takes `;`, `,`, `*` or `'` in a host too, and such a host would end up in our pages'
 * Content-Security-Policy (remote media origins): refused.
 */
const PLAIN_HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/;

/**
 * An http(s) URL with a plain host, or null. Keep its `href`, never the string it came from: the
 * parser drops tabs and newlines that the raw string still holds.
 */
export function httpUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value.length > MAX_URL) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && PLAIN_HOST.test(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/** `@name@host` or `name@host` (as PeerTube and Mastodon take it), or null. */
export function parseHandle(text: string): { name: string; host: string } | null {
  const match = /^@?([A-Za-z0-9\-_.:]{1,100})@([A-Za-z0-9.-]{1,253}(?::\d{1,5})?)$/.exec(text.trim());
  return match ? { name: match[1]!, host: match[2]!.toLowerCase() } : null;
}

/** An id given as a string or as an object with an id. */
export const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : null;

const first = <T>(v: T | T[] | undefined): T | undefined => (Array.isArray(v) ? v[0] : v);

/** The html page of an object or actor: a string, or the first Link with mediaType text/html. */
function pageUrl(url: unknown): string | null {
  for (const entry of Array.isArray(url) ? url : [url]) {
    if (typeof entry === 'string') {
      const url = httpUrl(entry);
      if (url) return url.href;
    }
    if (entry && typeof entry === 'object') {
      const link = entry as { href?: unknown; mediaType?: unknown };
      const url = link.mediaType === undefined || link.mediaType === 'text/html' ? httpUrl(link.href) : null;
      if (url) return url.href;
    }
  }
  return null;
}

function iconUrl(icon: unknown): string | null {
  const entry = first(icon as unknown[]) as { url?: unknown } | string | undefined;
  const url = typeof entry === 'string' ? entry : idOf(entry?.url) ?? (typeof entry?.url === 'string' ? entry.url : null);
  return httpUrl(url)?.href ?? null;
}

const ACTOR_TYPES = new Set(['Person', 'Group', 'Application', 'Service', 'Organization']);

/**
 * A remote actor document as we keep it, or null. The rules are PeerTube's (actor.ts:
 * sanitizeAndCheckActorObject): a known type, http(s) id and inbox, a preferredUsername from its
 * alphabet, a publicKey whose owner is the actor. The actor's id must be where we fetched it from
 * (same host), so one server cannot hand us another's actor.
 */
export function parseRemoteActor(doc: unknown, fetchedFrom: URL, newId: () => string): RemoteActorInput | null {
  if (!doc || typeof doc !== 'object') return null;
  const a = doc as Record<string, unknown>;
  const id = httpUrl(a.id);
  const inbox = httpUrl(a.inbox);
  if (!id || !inbox || typeof a.type !== 'string' || !ACTOR_TYPES.has(a.type)) return null;
  if (id.host !== fetchedFrom.host || inbox.host !== id.host) return null;
  if (typeof a.preferredUsername !== 'string' || !/^[A-Za-z0-9\-_.:]{1,100}$/.test(a.preferredUsername)) return null;
  const key = a.publicKey as { id?: unknown; owner?: unknown; publicKeyPem?: unknown } | undefined;
  if (!key || typeof key.publicKeyPem !== 'string' || !key.publicKeyPem.startsWith('-----BEGIN PUBLIC KEY-----') || key.publicKeyPem.length > 10_000)
    return null;
  if (key.owner !== id.toString() || typeof key.id !== 'string' || httpUrl(key.id)?.host !== id.host) return null;
  const endpoints = a.endpoints as { sharedInbox?: unknown } | undefined;
  const shared = httpUrl(endpoints?.sharedInbox);
  return {
    id: newId(),
    uri: id.toString(),
    host: id.host,
    type: a.type,
    preferredUsername: a.preferredUsername,
    name: plainText(typeof a.name === 'string' && a.name ? a.name : a.preferredUsername),
    summary: typeof a.summary === 'string' ? sanitiseHtml(a.summary) : '',
    url: pageUrl(a.url),
    iconUrl: iconUrl(a.icon),
    inbox: inbox.toString(),
    sharedInbox: shared && shared.host === id.host ? shared.toString() : null,
    publicKeyId: key.id,
    publicKeyPem: key.publicKeyPem,
  };
}

/** `PT1H2M3S` (PeerTube sends `PT<n>S`) as seconds, or null. */
export function parseDuration(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(value);
  if (!m || value === 'PT') return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/**
 * A remote `Video` as we keep it (metadata, no media), or null. Required as PeerTube requires them
 * (videos.ts): type Video, http(s) id, a name, a duration, published; the object must live on the
 * sender's host and be attributed to the sender.
 */
export function parseRemoteVideo(doc: unknown, actor: { id: string; uri: string; host: string }, newId: () => string): RemoteVideoInput | null {
  if (!doc || typeof doc !== 'object') return null;
  const v = doc as Record<string, unknown>;
  if (v.type !== 'Video') return null;
  const id = httpUrl(v.id);
  if (!id || id.host !== actor.host) return null;
  const attributed = (Array.isArray(v.attributedTo) ? v.attributedTo : [v.attributedTo]).map(idOf);
  if (!attributed.includes(actor.uri)) return null;
  if (typeof v.name !== 'string' || !v.name.trim()) return null;
  const duration = parseDuration(v.duration);
  const published = remoteTime(v.published);
  if (duration === null || published === null) return null;
  const updated = remoteTime(v.updated);
  const urls = Array.isArray(v.url) ? v.url : [v.url];
  const hls = urls.find((x) => x && typeof x === 'object' && (x as { mediaType?: unknown }).mediaType === 'application/x-mpegURL') as { href?: unknown } | undefined;
  const hlsUrl = httpUrl(hls?.href);
  return {
    id: newId(),
    uri: id.toString(),
    actorId: actor.id,
    name: plainText(v.name, 300),
    content: typeof v.content === 'string' ? (v.mediaType === 'text/markdown' ? plainText(v.content, MAX_TEXT) : sanitiseHtml(v.content)) : '',
    duration,
    pageUrl: pageUrl(v.url) ?? id.toString(),
    thumbnailUrl: iconUrl(v.icon),
    hlsUrl: hlsUrl && hlsUrl.host === actor.host ? hlsUrl.toString() : null,
    mp4Url: null,
    publishedAt: new Date(published),
    updatedAt: new Date(updated ?? published),
  };
}
