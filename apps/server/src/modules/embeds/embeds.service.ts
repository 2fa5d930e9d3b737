import { channelVideosPath, EMBED_SIZE, embedCode, embedMessages, embedPath, id as idSchema, type OembedQuery, type OembedResponse } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import { VideosService } from '../videos/videos.service.ts';

const WATCH_PATH = /^\/video\/([^/]+)\/?$/;
/** Thumbnails are stored at most this size (videos/thumbnail.ts). */
const THUMBNAIL_BOX = { width: 1280, height: 720 };

/** The largest 16:9 frame within the default size and the consumer's limits. */
export function frameSize(maxwidth?: number, maxheight?: number): { width: number; height: number } {
  let width = Math.min(EMBED_SIZE.width, maxwidth ?? Infinity);
  let height = Math.round((width * 9) / 16);
  if (maxheight && height > maxheight) {
    height = maxheight;
    width = Math.floor((height * 16) / 9);
  }
  return { width: Math.max(1, width), height: Math.max(1, height) };
}

/** oEmbed 1.0 for the watch pages of this instance (docs/embeds.md). */
export class EmbedsService {
  private readonly videos: VideosService;

  constructor(private readonly ctx: AppContext) {
    this.videos = new VideosService(ctx);
  }

  async oembed(q: OembedQuery): Promise<OembedResponse> {
    let url: URL;
    try {
      url = new URL(q.url);
    } catch {
      throw badRequest(embedMessages.invalidUrl, [{ path: 'url', message: embedMessages.invalidUrl }]);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(embedMessages.invalidUrl, [{ path: 'url', message: embedMessages.invalidUrl }]);
    // oEmbed §2.3.4: a format the provider does not serve is 501.
    if (q.format === 'xml') throw new ApiError(501, embedMessages.xmlUnsupported);
    const origin = this.ctx.config.publicUrl;
    const videoId = WATCH_PATH.exec(url.pathname)?.[1];
    if (url.origin !== new URL(origin).origin || !videoId || !idSchema.safeParse(videoId).success) throw notFound(embedMessages.notFound);
    // Anonymous, as the page that embeds it: a private video is not found, whoever asks.
    const video = await this.videos.get(videoId, null).catch((err: unknown) => {
      throw err instanceof ApiError && err.statusCode === 404 ? notFound(embedMessages.notFound) : err;
    });
    const { name } = await this.ctx.settings.get();
    const { width, height } = frameSize(q.maxwidth, q.maxheight);
    const absolute = (path: string) => new URL(path, `${origin}/`).toString();
    const thumbnail = video.thumbnail?.url ? absolute(video.thumbnail.url) : null;
    const fit = Math.min(1, THUMBNAIL_BOX.width / (video.width || THUMBNAIL_BOX.width), THUMBNAIL_BOX.height / (video.height || THUMBNAIL_BOX.height));
    return {
      version: '1.0',
      type: 'video',
      provider_name: name,
      provider_url: absolute('/'),
      title: video.title,
      author_name: video.owner.fullName,
      author_url: absolute(channelVideosPath(video.owner.userName)),
      html: embedCode({ src: absolute(embedPath(video._id)), title: video.title, width, height }),
      width,
      height,
      ...(thumbnail
        ? {
            thumbnail_url: thumbnail,
            thumbnail_width: Math.round((video.width || THUMBNAIL_BOX.width) * fit),
            thumbnail_height: Math.round((video.height || THUMBNAIL_BOX.height) * fit),
          }
        : {}),
    };
  }
}
