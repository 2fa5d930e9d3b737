import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../src/context.ts';
import { newId } from '../src/lib/ids.ts';
import { originalKey, videoMediaPrefix } from '../src/storage/media-keys.ts';
import type { UserRow } from '../src/modules/users/users.repository.ts';
import { createVideo } from './harness.ts';

/** The upload as a phone sends it: the bytes that must never leak (a GPS position among them). */
export const ORIGINAL_BYTES = Buffer.from('....ftypqt  ....moov....udta.\u00a9xyz+48.8584+002.2945/ original bytes');

const variant = (segments: number) =>
  '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="init.mp4"\n' +
  Array.from({ length: segments }, (_, i) => `#EXTINF:4.000,\nseg_0000${i}.m4s\n`).join('') +
  '#EXT-X-ENDLIST\n';

/**
 * The files a player loads from a ready video, as the transcoder names them (tiny stand-ins, no
 * transcode): the master names the audio group and the rendition relatively, each playlist its
 * init and segments, the storyboard its sprite.
 */
function playableFiles(prefix: string): Record<string, string> {
  return {
    [`${prefix}/hls/master.m3u8`]:
      '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"\n' +
      '#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x240,AUDIO="audio"\n240p/index.m3u8\n',
    [`${prefix}/hls/240p/index.m3u8`]: variant(2),
    [`${prefix}/hls/240p/init.mp4`]: 'init segment',
    [`${prefix}/hls/240p/seg_00000.m4s`]: 'media segment 0 0123456789',
    [`${prefix}/hls/240p/seg_00001.m4s`]: 'media segment 1',
    [`${prefix}/hls/audio/index.m3u8`]: variant(1),
    [`${prefix}/hls/audio/init.mp4`]: 'audio init segment',
    [`${prefix}/hls/audio/seg_00000.m4s`]: 'audio segment 0',
    [`${prefix}/poster.jpg`]: 'poster image',
    [`${prefix}/storyboard.jpg`]: 'storyboard sprite',
    [`${prefix}/storyboard.vtt`]: 'WEBVTT\n\n00:00:00.000 --> 00:00:04.000\nstoryboard.jpg#xywh=0,0,160,90\n',
  };
}

export interface StoredVideo {
  id: string;
  /** Every stored key of the video: what a player loads, the progressive mp4 and, last, the original. */
  keys: string[];
  /** The keys a player loads (master, playlists, inits, segments, storyboard, sprite, poster). */
  playable: string[];
  mediaToken: string;
}

/** A ready video's row and stored files, written directly (public unless `over` says otherwise). */
export async function storeReadyVideo(
  ctx: AppContext,
  owner: Pick<UserRow, 'id'>,
  over: Parameters<typeof createVideo>[2] = {},
): Promise<StoredVideo> {
  const id = newId();
  const prefix = videoMediaPrefix(id);
  const files = { ...playableFiles(prefix), [`${prefix}/progressive.mp4`]: 'progressive mp4' };
  for (const [key, body] of Object.entries(files)) await ctx.storage.putBuffer(key, Buffer.from(body));
  await ctx.storage.putBuffer(originalKey(id), ORIGINAL_BYTES);
  const row = await createVideo(ctx, owner, {
    id,
    hlsKey: `${prefix}/hls/master.m3u8`,
    storyboardKey: `${prefix}/storyboard.vtt`,
    thumbnailKey: `${prefix}/poster.jpg`,
    progressiveKey: `${prefix}/progressive.mp4`,
    sourceKey: originalKey(id),
    ...over,
  });
  return { id, keys: [...Object.keys(files), originalKey(id)], playable: Object.keys(playableFiles(prefix)), mediaToken: row.mediaToken };
}

export interface Fetched {
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** One GET of a same-origin path (app.inject, or fetch through a front such as nginx). */
export type Getter = (url: string, headers?: Record<string, string>) => Promise<Fetched>;

/** GETs answered by the app in-process. */
export const injectGetter =
  (app: FastifyInstance): Getter =>
  async (url, headers = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    return { url, status: res.statusCode, headers: res.headers, body: res.rawPayload };
  };

/** References inside a playlist (URI lines and URI="..." attributes) or a storyboard (cue targets). */
function references(url: string, text: string): string[] {
  const path = url.split('?')[0]!;
  if (path.endsWith('.m3u8')) {
    return text.split('\n').flatMap((line) => {
      const l = line.trim();
      if (!l) return [];
      if (!l.startsWith('#')) return [l];
      return [...l.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!);
    });
  }
  if (path.endsWith('.vtt')) return [...text.matchAll(/^(.+)#xywh=/gm)].map((m) => m[1]!.trim());
  return [];
}

const resolve = (ref: string, base: string) => {
  const u = new URL(ref, new URL(base, 'http://front'));
  return u.pathname + u.search;
};

/**
 * Loads a video's media the way the web app does: hls.js (master, then each variant playlist, then
 * its init and segments, resolving each reference against the playlist's URL), the storyboard and
 * its sprite, the poster. Answers every request made, in order; a refused file is not followed.
 */
export async function loadLikePlayer(
  get: Getter,
  video: { videoFile: { url: string | null }; storyboard: { url: string } | null; thumbnail: { url: string } | null },
): Promise<Fetched[]> {
  const seen: Fetched[] = [];
  const queue = [video.videoFile.url, video.storyboard?.url, video.thumbnail?.url].filter((u): u is string => !!u);
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.some((f) => f.url === url)) continue;
    const res = await get(url);
    seen.push(res);
    if (res.status === 200) queue.push(...references(url, res.body.toString()).map((ref) => resolve(ref, url)));
  }
  return seen;
}

/** Each file's URL path with its credential segment taken out: the stored key below /media/. */
export const keyOf = (url: string): string => {
  const [, , folder, id, , ...rest] = url.split('?')[0]!.split('/');
  return [folder, id, ...rest].join('/');
};

/** The public URL of a public video's file (`rest` below its folder). */
export const publicUrl = (v: { id: string; mediaToken: string }, rest: string): string => `/media/videos/${v.id}/pub-${v.mediaToken}/${rest}`;

/** A signed, expiring URL of a file of the video (what its owner gets while it is not public). */
export const signedUrl = (id: string, rest: string): RegExp =>
  new RegExp(`^/media/videos/${id}/exp-\\d+-[\\w-]{43}/${rest.replace(/[.]/g, '\\.')}$`);

/** A video row whose thumbnail key sits in its own folder (`videos/{id}/thumb.jpg`); no file is stored. */
export function createVideoWithThumbnail(ctx: AppContext, owner: Pick<UserRow, 'id'>, over: Parameters<typeof createVideo>[2] = {}) {
  const id = newId();
  return createVideo(ctx, owner, { id, thumbnailKey: `${videoMediaPrefix(id)}/thumb.jpg`, ...over });
}
