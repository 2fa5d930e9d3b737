import { channelVideosPath, EMBED_SIZE, embedPath, id as idSchema, type Video } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../lib/errors.ts';
import { TweetsService } from '../tweets/tweets.service.ts';
import { UsersService } from '../users/users.service.ts';
import { VideosService } from '../videos/videos.service.ts';
import type { PageMeta } from './html-head.ts';

/** Crawlers show about this much of a description. */
const DESCRIPTION_CHARS = 200;

const VIDEO = /^\/video\/([^/]+)\/?$/;
const TWEET = /^\/tweet\/([^/]+)\/?$/;
const CHANNEL = /^\/channel\/@([^/]+)(?:\/.*)?$/;

/** Whether a path is one of the pages that get their item's title and link-preview tags. */
export const hasPageMeta = (pathname: string): boolean => VIDEO.test(pathname) || TWEET.test(pathname) || CHANNEL.test(pathname);

const clip = (text: string) => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > DESCRIPTION_CHARS ? `${oneLine.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…` : oneLine;
};

/** The item, or null when the public may not see it (the services' 404: same visibility rule as the API). */
async function visible<T>(lookup: () => Promise<T>): Promise<T | null> {
  try {
    return await lookup();
  } catch (err) {
    if (err instanceof ApiError && (err.statusCode === 404 || err.statusCode === 400)) return null;
    throw err;
  }
}

/**
 * The head of the watch, channel and tweet pages as an anonymous visitor would see them: one
 * lookup through the module's own service, with no viewer (a crawler has no session, and a
 * logged-in owner's private video must not leak into a shared link's preview).
 */
export class PagesService {
  private readonly videos: VideosService;
  private readonly users: UsersService;
  private readonly tweets: TweetsService;
  private readonly origin: string;

  constructor(private readonly ctx: AppContext) {
    this.videos = new VideosService(ctx);
    this.users = new UsersService(ctx);
    this.tweets = new TweetsService(ctx);
    this.origin = ctx.config.publicUrl;
  }

  private absolute(url: string): string {
    return new URL(url, `${this.origin}/`).toString();
  }

  async metaFor(pathname: string): Promise<PageMeta> {
    const { name: site } = await this.ctx.settings.get();
    const generic: PageMeta = { title: site };
    const [, videoId] = VIDEO.exec(pathname) ?? [];
    if (videoId) {
      if (!idSchema.safeParse(videoId).success) return generic;
      const video = await visible(() => this.videos.get(videoId, null));
      return video ? this.videoMeta(video, site) : generic;
    }
    const [, tweetId] = TWEET.exec(pathname) ?? [];
    if (tweetId) {
      if (!idSchema.safeParse(tweetId).success) return generic;
      const tweet = await visible(() => this.tweets.one(tweetId, null));
      if (!tweet) return generic;
      const title = `${tweet.owner.fullName} (@${tweet.owner.userName})`;
      return this.itemMeta(site, {
        title,
        description: clip(tweet.content),
        type: 'article',
        url: `/tweet/${tweet._id}`,
        image: tweet.image?.url ?? tweet.owner.avatar?.url,
      });
    }
    const [, userName] = CHANNEL.exec(pathname) ?? [];
    if (userName) {
      const channel = await visible(() => this.users.channel(userName, null));
      if (!channel) return generic;
      const meta = this.itemMeta(site, {
        title: `${channel.fullName} (@${channel.userName})`,
        description: `${channel.fullName}'s channel on ${site}: ${channel.videoCount} videos, ${channel.subscriberCount} subscribers`,
        type: 'profile',
        url: channelVideosPath(channel.userName),
        image: channel.avatar?.url,
      });
      const feed = (format: string) => this.absolute(`/api/v1/feeds/channels/${encodeURIComponent(channel.userName)}?format=${format}`);
      meta.alternates = [
        { type: 'application/rss+xml', href: feed('rss'), title: `${channel.fullName} (RSS)` },
        { type: 'application/atom+xml', href: feed('atom'), title: `${channel.fullName} (Atom)` },
      ];
      return meta;
    }
    return generic;
  }

  private videoMeta(video: Video, site: string): PageMeta {
    const watchUrl = `/video/${video._id}`;
    const meta = this.itemMeta(site, {
      title: video.title,
      description: clip(video.description),
      type: 'video.other',
      url: watchUrl,
      image: video.thumbnail?.url,
      card: 'player',
    });
    // Every video the public may open embeds (unlisted ones too): the player card plays the embed.
    const embed = this.absolute(embedPath(video._id));
    const size = [String(EMBED_SIZE.width), String(EMBED_SIZE.height)] as const;
    meta.properties!.push(['og:video', embed]);
    if (embed.startsWith('https:')) meta.properties!.push(['og:video:secure_url', embed]);
    meta.properties!.push(
      ['og:video:type', 'text/html'],
      ['og:video:width', size[0]],
      ['og:video:height', size[1]],
    );
    meta.names!.push(['twitter:player', embed], ['twitter:player:width', size[0]], ['twitter:player:height', size[1]]);
    meta.alternates = [
      {
        type: 'application/json+oembed',
        href: this.absolute(`/api/v1/oembed?${new URLSearchParams({ url: this.absolute(watchUrl), format: 'json' })}`),
        title: video.title,
      },
    ];
    return meta;
  }

  private itemMeta(
    site: string,
    item: { title: string; description: string; type: string; url: string; image?: string | null; card?: 'player' },
  ): PageMeta {
    const url = this.absolute(item.url);
    const image = item.image ? this.absolute(item.image) : null;
    const properties: [string, string][] = [
      ['og:site_name', site],
      ['og:type', item.type],
      ['og:title', item.title],
      ['og:description', item.description],
      ['og:url', url],
    ];
    if (image) properties.push(['og:image', image]);
    const names: [string, string][] = [
      ['twitter:card', item.card ?? 'summary'],
      ['twitter:title', item.title],
      ['twitter:description', item.description],
    ];
    if (image) names.push(['twitter:image', image]);
    return { title: `${item.title} - ${site}`, description: item.description, properties, names };
  }
}
