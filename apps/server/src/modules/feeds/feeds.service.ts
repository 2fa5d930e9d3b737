import {
  API_PREFIX,
  channelVideosPath,
  feedMessages,
  feedPaths,
  type FeedFormat,
  type FeedTokenCreated,
  type FeedTokenStatus,
} from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/hash.ts';
import { mediaUrls, type MediaUrls } from '../media-links/media-links.ts';
import { ChannelsRepository } from '../users/channels.repository.ts';
import { renderFeed, type FeedDocument, type FeedEntry } from './feed-xml.ts';
import { FeedsRepository, type FeedVideoRow } from './feeds.repository.ts';

/** A rendered feed. */
export interface FeedAnswer {
  format: FeedFormat;
  xml: string;
}

export class FeedsService {
  private readonly feeds: FeedsRepository;
  private readonly media: MediaUrls;

  constructor(private readonly ctx: AppContext) {
    this.feeds = new FeedsRepository(ctx.db);
    this.media = mediaUrls(ctx);
  }

  /** A site path or an already absolute URL, as the absolute URL a feed reader needs. */
  private absolute(pathOrUrl: string): string {
    return pathOrUrl.startsWith('/') ? `${this.ctx.config.publicUrl}${pathOrUrl}` : pathOrUrl;
  }

  private api(path: string): string {
    return this.absolute(`${API_PREFIX}${path}`);
  }

  /** A channel's latest public videos; an unknown or suspended channel is a 404. */
  async channel(handle: string, format: FeedFormat): Promise<FeedAnswer> {
    const channel = await new ChannelsRepository(this.ctx.db).findByUserName(handle.replace(/^@/, '').toLowerCase(), null);
    if (!channel) throw notFound(feedMessages.channelNotFound);
    const name = `${channel.fullName} (@${channel.userName})`;
    return this.render(format, await this.feeds.channelVideos(channel.id), {
      title: name,
      description: `The latest videos of ${name}`,
      link: this.absolute(channelVideosPath(channel.userName)),
      self: this.api(feedPaths.channel(channel.userName, format)),
      author: channel.fullName,
    });
  }

  /** The latest public videos of the channels the token's owner subscribes to; an unknown, revoked or suspended owner's token is a 404. */
  async subscriptions(token: string, format: FeedFormat): Promise<FeedAnswer> {
    const owner = await this.feeds.ownerOfToken(sha256(token));
    if (!owner) throw notFound(feedMessages.feedNotFound);
    return this.render(format, await this.feeds.subscriptionVideos(owner.id), {
      title: `Subscriptions of ${owner.fullName} (@${owner.userName})`,
      description: `The latest videos of the channels ${owner.fullName} subscribes to`,
      link: this.absolute('/subscriptions'),
      self: this.api(feedPaths.subscriptions(token, format)),
      author: null,
    });
  }

  /** A new token for the user, replacing (and so invalidating) the old one; the only answer that shows it. */
  async createToken(userId: string): Promise<FeedTokenCreated> {
    const token = randomToken();
    const createdAt = await this.feeds.putToken(userId, sha256(token));
    return {
      token,
      rss: this.api(feedPaths.subscriptions(token, 'rss')),
      atom: this.api(feedPaths.subscriptions(token, 'atom')),
      createdAt: createdAt.toISOString(),
    };
  }

  async tokenStatus(userId: string): Promise<FeedTokenStatus> {
    const createdAt = await this.feeds.tokenCreatedAt(userId);
    return { exists: createdAt !== undefined, createdAt: createdAt?.toISOString() ?? null };
  }

  async revokeToken(userId: string): Promise<void> {
    if (!(await this.feeds.deleteToken(userId))) throw notFound(feedMessages.noToken);
  }

  private async render(format: FeedFormat, rows: FeedVideoRow[], doc: Omit<FeedDocument, 'entries'>): Promise<FeedAnswer> {
    const entries = await Promise.all(rows.map((r) => this.entry(r)));
    return { format, xml: renderFeed(format, { ...doc, entries }) };
  }

  private async entry({ video, owner, publicToken, publishedAt }: FeedVideoRow): Promise<FeedEntry> {
    const thumbnail = this.media.fileRef(video.id, publicToken, video.thumbnailKey)?.url;
    // At most FEED_ITEMS sizes, read from storage only for the videos that offer the download.
    const enclosure =
      video.downloadsEnabled && video.progressiveKey
        ? {
            url: this.api(`/videos/video/${video.id}.mp4?download=1`),
            length: await this.ctx.storage.bytesUnder(video.progressiveKey),
            type: 'video/mp4',
          }
        : null;
    return {
      url: this.absolute(`/video/${video.id}`),
      title: video.title,
      description: video.description,
      published: publishedAt,
      updated: video.updatedAt,
      author: owner.fullName,
      thumbnail: thumbnail ? this.absolute(thumbnail) : null,
      enclosure,
    };
  }
}
