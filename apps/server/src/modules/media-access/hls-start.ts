import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { MEDIA_PATH, PUBLIC_CACHE } from '../media-links/media-links.ts';
import { MediaAccessService } from './media-access.service.ts';

/**
 * The files a player fetches one after another before an HLS video's first frame: the start
 * variant's playlist, its init segment and first segment, and the same for the variant's audio
 * rendition. The watch shell preloads them, so that on a slow link they load alongside the app
 * instead of in sequence after it (ADR 017, addendum 7).
 */

/** An attribute of an `#EXT-X-...:` line, unquoted. */
const attribute = (line: string, name: string): string | null => {
  const m = new RegExp(`[:,]${name}=(?:"([^"]*)"|([^,]*))`).exec(line);
  return m ? (m[1] ?? m[2] ?? null) : null;
};

/**
 * The variant a player starts with and its audio group: the lowest bandwidth, as Chromium picks
 * before it knows the link's speed; Safari and hls.js take the first listed, which our ladder's
 * master lists first too (mergeMasters keeps the first pass's lowest rung on top).
 */
export function startVariant(master: string): { uri: string; audio: string | null } | null {
  const lines = master.split(/\r?\n/);
  let best: { uri: string; audio: string | null } | null = null;
  let lowest = Infinity;
  for (let i = 0; i < lines.length - 1; i++) {
    const uri = lines[i + 1]!.trim();
    if (!lines[i]!.startsWith('#EXT-X-STREAM-INF:') || !uri || uri.startsWith('#')) continue;
    const bandwidth = Number(attribute(lines[i]!, 'BANDWIDTH') ?? Infinity);
    if (best && bandwidth >= lowest) continue;
    best = { uri, audio: attribute(lines[i]!, 'AUDIO') };
    lowest = bandwidth;
  }
  return best;
}

/** The playlist of an audio group's rendition a player picks: the group's default, else its first. */
export function audioRendition(master: string, group: string): string | null {
  const renditions = master
    .split(/\r?\n/)
    .filter((l) => l.startsWith('#EXT-X-MEDIA:') && attribute(l, 'TYPE') === 'AUDIO' && attribute(l, 'GROUP-ID') === group && attribute(l, 'URI'));
  const chosen = renditions.find((l) => attribute(l, 'DEFAULT') === 'YES') ?? renditions[0];
  return chosen ? attribute(chosen, 'URI') : null;
}

/** A media playlist's first files: its init segment (`#EXT-X-MAP`), if any, and its first segment. */
export function mediaStart(playlist: string): string[] {
  const files: string[] = [];
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MAP:')) {
      const uri = attribute(line, 'URI');
      if (uri && files.length === 0) files.push(uri);
    } else if (line && !line.startsWith('#')) {
      files.push(line);
      break;
    }
  }
  return files;
}

/** A stored file by its URL path and its storage key, which end alike (`.../hls/240p/index.m3u8`). */
export interface Located {
  url: string;
  key: string;
}

/** A reference our playlists make: a file beside or below the playlist (no scheme, no absolute path, no `..`). */
const PLAIN = /^(?![a-z][a-z\d+.-]*:)(?!\/)(?!(?:.*\/)?\.\.(?:\/|$))[^?#]+$/i;
const folder = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);

/** The file `uri` names in the playlist `from`, by URL and by key; null for any other kind of reference. */
export const beside = (from: Located, uri: string): Located | null =>
  PLAIN.test(uri) ? { url: folder(from.url) + uri, key: folder(from.key) + uri } : null;

const CACHE_MS = 5 * 60_000;
const CACHE_ENTRIES = 1000;

export class HlsStart {
  private readonly media: MediaAccessService;
  // Per public URL (its token changes with the video's privacy): the files a page render would read again.
  private readonly cache = new Map<string, { files: Promise<string[]>; expires: number }>();

  constructor(private readonly ctx: AppContext) {
    this.media = new MediaAccessService(ctx);
  }

  /**
   * URL paths of the files after `masterUrl` that a player needs for its first frame, or none when
   * the video's media is not public (a no-store answer cannot be reused: a preload would load it
   * twice) or its playlists cannot be read. Never throws: the page does without.
   */
  files(masterUrl: string, log: FastifyBaseLogger): Promise<string[]> {
    const now = Date.now();
    const hit = this.cache.get(masterUrl);
    if (hit && hit.expires > now) return hit.files;
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    const files = this.read(masterUrl).catch((err: unknown) => {
      log.warn({ err, masterUrl }, 'HLS start files unreadable');
      return [];
    });
    this.cache.set(masterUrl, { files, expires: now + CACHE_MS });
    return files;
  }

  private async read(masterUrl: string): Promise<string[]> {
    // One access check, the master's: the files it names share its credential.
    if (!masterUrl.startsWith(`${MEDIA_PATH}/`)) return [];
    const file = await this.media.resolve(decodeURIComponent(masterUrl.slice(MEDIA_PATH.length + 1))).catch(() => null);
    if (file?.cacheControl !== PUBLIC_CACHE) return [];
    const master: Located = { url: masterUrl, key: file.key };
    const text = await this.text(master.key);
    const variant = startVariant(text);
    if (!variant) return [];
    const audio = variant.audio ? audioRendition(text, variant.audio) : null;
    const playlists = [variant.uri, audio].flatMap((uri) => (uri ? [beside(master, uri)] : [])).filter((p): p is Located => p !== null);
    const starts = await Promise.all(
      playlists.map(async (playlist) => {
        const files = mediaStart(await this.text(playlist.key)).map((uri) => beside(playlist, uri));
        return files.includes(null) ? [] : [playlist, ...(files as Located[])].map((f) => f.url);
      }),
    );
    return starts.flat();
  }

  private async text(key: string): Promise<string> {
    return (await buffer(await this.ctx.storage.getStream(key))).toString('utf8');
  }
}
