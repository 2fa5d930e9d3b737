import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { CAPTION_MAX_LANGUAGES, captionMessages, videoMessages, type VideoCaption } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { captionKey, captionPlaylistKey, videoMediaPrefix } from '../../storage/media-keys.ts';
import { MEDIA_NOT_FOUND, mediaUrls, type MediaUrls } from '../media-links/media-links.ts';
import { videoChanged } from '../videos/announce.ts';
import { VideosRepository } from '../videos/videos.repository.ts';
import { VideosService } from '../videos/videos.service.ts';
import { toCaptions } from '../videos/captions.presenter.ts';
import { CaptionsRepository } from './captions.repository.ts';
import { masterWithSubtitles, subtitlePlaylist } from './hls-subtitles.ts';
import { toWebVtt } from './webvtt.ts';

const MASTER = /^videos\/([0-9a-f-]{36})\/hls\/master\.m3u8$/;
const SUB_PLAYLIST = /^videos\/([0-9a-f-]{36})\/captions\/[\w.-]+\.m3u8$/;

export class CaptionsService {
  private readonly captions: CaptionsRepository;
  private readonly videos: VideosService;
  private readonly media: MediaUrls;

  constructor(private readonly ctx: AppContext) {
    this.captions = new CaptionsRepository(ctx.db);
    this.videos = new VideosService(ctx);
    this.media = mediaUrls(ctx);
  }

  /** Whoever may see the video may list its captions (the one visibility rule); 404 otherwise. */
  async list(videoId: string, viewerId: string | null): Promise<VideoCaption[]> {
    const row = await this.videos.videos.findVisible(videoId, viewerId);
    if (!row) throw notFound(videoMessages.notFound);
    return toCaptions(this.media, videoId, row.public_token, await this.captions.list(videoId));
  }

  /** 404 without the video, 403 unless the viewer owns it. */
  async owner(videoId: string, viewerId: string): Promise<void> {
    await this.videos.owned(videoId, viewerId);
  }

  /**
   * Adds or replaces the language's captions (owner only): converted to WebVTT and stored under a
   * fresh key; the row changes with the video locked, so concurrent uploads neither pass the
   * language limit nor leave a replaced file behind. The replaced file is removed afterwards.
   */
  async save(videoId: string, viewerId: string, lang: string, label: string, file: Buffer): Promise<VideoCaption[]> {
    await this.videos.owned(videoId, viewerId);
    const parsed = toWebVtt(file);
    const key = captionKey(videoId, lang, randomBytes(6).toString('hex'));
    const body = Buffer.from(parsed.vtt);
    await this.ctx.storage.putBuffer(key, body, 'text/vtt; charset=utf-8');
    let replaced: string | undefined;
    try {
      replaced = await this.ctx.db.transaction(async (tx) => {
        const video = await new VideosRepository(tx).lock(videoId);
        if (!video) throw notFound(videoMessages.notFound);
        const captions = new CaptionsRepository(tx);
        const existing = await captions.find(videoId, lang);
        if (!existing && (await captions.countFor(videoId)) >= CAPTION_MAX_LANGUAGES) throw badRequest(captionMessages.tooMany);
        await captions.upsert({ videoId, lang, label, storageKey: key, bytes: body.length, body: parsed.plain });
        // Other servers keep the video's caption tracks (its `Video` lists them): tell federation.
        await videoChanged(tx, video);
        return existing?.storageKey;
      });
    } catch (err) {
      await this.ctx.storage.delete(key);
      throw err;
    }
    if (replaced) await this.ctx.storage.delete(replaced);
    return this.list(videoId, viewerId);
  }

  async remove(videoId: string, viewerId: string, lang: string): Promise<void> {
    const video = await this.videos.owned(videoId, viewerId);
    const existing = await this.captions.find(videoId, lang);
    if (!existing) throw notFound(captionMessages.notFound);
    await this.ctx.db.transaction(async (tx) => {
      await new CaptionsRepository(tx).delete(videoId, lang);
      await videoChanged(tx, video);
    });
    await this.ctx.storage.delete(existing.storageKey);
  }

  /**
   * The playlists written at serving time (the media route checked the credential already): the
   * master with a subtitle rendition per caption, and a caption's one-segment playlist. Null for
   * any other key; a 404 when the playlist has nothing to name.
   */
  async playlist(key: string): Promise<string | null> {
    const master = MASTER.exec(key);
    if (master) {
      const videoId = master[1]!;
      if (!(await this.ctx.storage.exists(key))) throw notFound(MEDIA_NOT_FOUND);
      const stored = (await buffer(await this.ctx.storage.getStream(key))).toString('utf8');
      const prefix = `${videoMediaPrefix(videoId)}/`;
      const subs = (await this.captions.list(videoId)).map((c) => ({
        lang: c.lang,
        label: c.label,
        uri: `../${captionPlaylistKey(c.storageKey).slice(prefix.length)}`,
      }));
      return masterWithSubtitles(stored, subs);
    }
    const sub = SUB_PLAYLIST.exec(key);
    if (!sub) return null;
    const videoId = sub[1]!;
    const vttKey = key.replace(/\.m3u8$/, '.vtt');
    const caption = await this.captions.findByKey(videoId, vttKey);
    const video = caption && (await this.videos.videos.findRow(videoId));
    if (!video) throw notFound(MEDIA_NOT_FOUND);
    return subtitlePlaylist(vttKey.slice(vttKey.lastIndexOf('/') + 1), video.duration);
  }
}
