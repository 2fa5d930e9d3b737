import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { MEDIA_PATH } from './media-links.ts';
import { MediaAccessService, PUBLIC_CACHE } from './media-access.service.ts';

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

/** A reference in a playlist at `base` (a URL path) as a path of this origin, or null for another origin. */
const resolveUri = (uri: string, base: string): string | null => {
  const url = new URL(uri, `http://origin${base}`);
  return url.origin === 'http://origin' ? url.pathname : null;
};

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
    const master = await this.text(masterUrl);
    const variant = master === null ? null : startVariant(master);
    if (!master || !variant) return [];
    const audio = variant.audio ? audioRendition(master, variant.audio) : null;
    const playlists = [variant.uri, audio].flatMap((uri) => (uri ? [resolveUri(uri, masterUrl)] : [])).filter((p): p is string => p !== null);
    const starts = await Promise.all(
      playlists.map(async (p) => {
        const text = await this.text(p);
        const files = text === null ? [] : mediaStart(text).map((uri) => resolveUri(uri, p));
        return text === null || files.includes(null) ? [] : [p, ...(files as string[])];
      }),
    );
    return starts.flat();
  }

  /** A public playlist's stored text, or null (not under /media, not public, not stored). */
  private async text(urlPath: string): Promise<string | null> {
    if (!urlPath.startsWith(`${MEDIA_PATH}/`)) return null;
    const file = await this.media.resolve(decodeURIComponent(urlPath.slice(MEDIA_PATH.length + 1))).catch(() => null);
    if (!file || file.cacheControl !== PUBLIC_CACHE || !(await this.ctx.storage.exists(file.key))) return null;
    return (await buffer(await this.ctx.storage.getStream(file.key))).toString('utf8');
  }
}
