import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';
import { encodeKey } from '../../storage/local-storage.ts';
import { videoMediaPrefix } from '../../storage/media-keys.ts';
import type { Storage } from '../../storage/storage.ts';

/** The `{ url }` object the API uses for images, or null. */
export const urlRef = (url: string | null): { url: string } | null => (url ? { url } : null);

export const PUBLIC_CACHE = 'public, max-age=31536000, immutable';
/** Public playlists that change when captions do (master, subtitles): cacheable, revalidated each time (ETag). */
export const PLAYLIST_PUBLIC_CACHE = 'public, no-cache';
/** Media of a video that is not public: never stored by a browser or a shared cache. */
export const PRIVATE_CACHE = 'private, no-store';

export const MEDIA_NOT_FOUND = 'Media not found';
export const MEDIA_LINK_INVALID = 'This media link is invalid or has expired';

/** Where the app serves stored files. */
export const MEDIA_PATH = '/media';

/**
 * The proof a video media URL carries, as one path segment between the video id and the file
 * (`/media/videos/{id}/{credential}/hls/master.m3u8`), so that the relative references inside
 * HLS playlists and the storyboard carry it too:
 * - `pub-{token}`: the video's current media token, valid while the video is public;
 * - `exp-{unix seconds}-{HMAC}`: a signed link to a video that is not public, until it expires.
 */
export type Credential = { kind: 'public'; token: string } | { kind: 'signed'; expires: number; mac: string };

const CREDENTIAL = /^(?:pub-([0-9a-f]{32})|exp-(\d{1,12})-([A-Za-z0-9_-]{43}))$/;

export function parseCredential(segment: string): Credential | null {
  const m = CREDENTIAL.exec(segment);
  if (!m) return null;
  return m[1] ? { kind: 'public', token: m[1] } : { kind: 'signed', expires: Number(m[2]), mac: m[3]! };
}

/** Signs and checks the links to media that is not public: HMAC-SHA256 over the video id and the expiry. */
export class MediaSigner {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    // A key of its own, derived from the instance's one signing secret.
    this.key = createHmac('sha256', secret).update('glimpse media links').digest();
  }

  private mac(videoId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${videoId}.${expires}`).digest('base64url');
  }

  /**
   * A credential valid for at least the TTL. The expiry is rounded up to a sixth of the TTL, so a
   * page that refetches a video gets the same URL for a while and its player does not restart.
   */
  sign(videoId: string, nowMs = Date.now()): string {
    const step = Math.max(60, Math.floor(this.ttlSeconds / 6));
    const expires = Math.ceil((nowMs / 1000 + this.ttlSeconds) / step) * step;
    return `exp-${expires}-${this.mac(videoId, expires)}`;
  }

  verify(videoId: string, credential: { expires: number; mac: string }, nowMs = Date.now()): boolean {
    if (credential.expires * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.mac(videoId, credential.expires));
    const given = Buffer.from(credential.mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

export const mediaSigner = (config: Config): MediaSigner => new MediaSigner(config.jwtSecret, config.mediaUrlTtlSeconds);

/** The URLs presenters hand out: video files behind their credential, images at their storage URL. */
export class MediaUrls {
  constructor(
    readonly storage: Storage,
    private readonly signer: MediaSigner,
  ) {}

  /**
   * URLs of one video's files. `publicToken` is set only while the video is public (the visibility
   * rule's `publicMediaToken`); otherwise the row reached the presenter because the viewer owns it,
   * and the links are signed and expire. Keys outside the video's folder get no URL.
   */
  forVideo(videoId: string, publicToken: string | null): (key: string | null) => string | null {
    const prefix = `${videoMediaPrefix(videoId)}/`;
    let credential: string | undefined;
    return (key) => {
      if (!key?.startsWith(prefix)) return null;
      credential ??= publicToken ? `pub-${publicToken}` : this.signer.sign(videoId);
      return `${MEDIA_PATH}/${encodeKey(prefix)}${credential}/${encodeKey(key.slice(prefix.length))}`;
    };
  }

  /** One file of a video (a card's thumbnail) as the API's `{ url }`; null without a video or a key. */
  fileRef(videoId: string | null, publicToken: string | null, key: string | null): { url: string } | null {
    return videoId ? urlRef(this.forVideo(videoId, publicToken)(key)) : null;
  }
}

export const mediaUrls = (ctx: { storage: Storage; config: Config }): MediaUrls => new MediaUrls(ctx.storage, mediaSigner(ctx.config));
