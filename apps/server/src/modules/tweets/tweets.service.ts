import { createTweetFields, tweetMessages, updateTweetFields, type PageQuery, type Tweet } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { parseWith } from '../../lib/validate.ts';
import { replaceFile, saveImage } from '../../storage/images.ts';
import { tweetImageFolder } from '../../storage/media-keys.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { toTweet } from './tweets.presenter.ts';
import { TweetsRepository } from './tweets.repository.ts';

/** A tweet form as the multipart body carried it; `imagePath` is the received temp file. */
export interface TweetForm {
  fields: Record<string, string>;
  imagePath?: string;
}

const IMAGE_BOX = { width: 1280, height: 1280, fit: 'inside' } as const;

export class TweetsService {
  private readonly tweets: TweetsRepository;

  constructor(private readonly ctx: AppContext) {
    this.tweets = new TweetsRepository(ctx.db);
  }

  async create(userId: string, form: TweetForm): Promise<Tweet> {
    const { content } = parseWith(createTweetFields, form.fields);
    const id = newId();
    const imageKey = form.imagePath ? await saveImage(this.ctx.storage, form.imagePath, `${tweetImageFolder(id)}/`, IMAGE_BOX) : null;
    await this.tweets.insert({ id, ownerId: userId, content, imageKey });
    return this.one(id, userId);
  }

  async update(userId: string, id: string, form: TweetForm): Promise<Tweet> {
    await this.ownTweet(userId, id);
    const { content } = parseWith(updateTweetFields, form.fields);
    if (content === undefined && !form.imagePath) throw badRequest('Send new content or a new image');
    if (!form.imagePath) {
      await this.tweets.update(id, { content });
    } else {
      const imageKey = await saveImage(this.ctx.storage, form.imagePath, `${tweetImageFolder(id)}/`, IMAGE_BOX);
      const updated = await replaceFile(this.ctx.storage, this.ctx.db, imageKey, async (tx) => {
        const repo = new TweetsRepository(tx);
        const row = await repo.lock(id);
        if (!row) return undefined;
        await repo.update(id, { content, imageKey });
        return { oldKey: row.imageKey, result: true };
      });
      if (!updated) throw notFound(tweetMessages.notFound);
    }
    return this.one(id, userId);
  }

  /** Removes the tweet, its comments and their likes; then its image files. */
  async remove(userId: string, id: string): Promise<{ _id: string; deletedCount: number }> {
    const deletedCount = await this.ctx.db.transaction(async (tx) => {
      const repo = new TweetsRepository(tx);
      const tweet = await repo.lock(id);
      if (!tweet) throw notFound(tweetMessages.notFound);
      if (tweet.ownerId !== userId) throw forbidden('You can only delete your own tweets');
      return repo.deleteWithComments(id);
    });
    await this.ctx.storage.deletePrefix(tweetImageFolder(id));
    return { _id: id, deletedCount };
  }

  async one(id: string, viewerId: string | null): Promise<Tweet> {
    const row = await this.tweets.findView(id, viewerId);
    if (!row) throw notFound(tweetMessages.notFound);
    return toTweet(this.ctx.storage, row);
  }

  /**
   * A channel's tweets. Pages go from the newest tweets back, and each page is answered oldest
   * first: the spec's client shows the list reversed (spec §7), so it gets the newest on top.
   */
  async byChannel(channelId: string, viewerId: string | null, q: PageQuery) {
    if (!(await new UsersRepository(this.ctx.db).findById(channelId))) throw notFound('Channel not found');
    const rows = await this.tweets.listByOwner(channelId, viewerId, pageWindow(q));
    const page = pageOf(
      'tweets',
      rows.map((r) => toTweet(this.ctx.storage, r)),
      q,
      (t) => t._id,
    );
    return { ...page, tweets: [...page.tweets].reverse() };
  }

  private async ownTweet(userId: string, id: string) {
    const tweet = await this.tweets.findById(id);
    if (!tweet) throw notFound(tweetMessages.notFound);
    if (tweet.ownerId !== userId) throw forbidden('You can only edit your own tweets');
    return tweet;
  }
}
