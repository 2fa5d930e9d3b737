import { createTweetFields, tweetMessages, updateTweetFields, type PageQuery, type ReviewState, type Tweet } from '@glimpse/contract';
import { recordEvent } from '../../events/events.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { can, type Actor } from '../../lib/permissions.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { pageOf, pageWindow } from '../../lib/keyset.ts';
import { parseWith } from '../../lib/validate.ts';
import { replaceFile, saveImage } from '../../storage/images.ts';
import { tweetImageFolder } from '../../storage/media-keys.ts';
import { UsersRepository } from '../users/users.repository.ts';
import { WatchedWordsService } from '../watched-words/watched-words.service.ts';
import { toTweet } from './tweets.presenter.ts';
import { TweetsRepository, type TweetRow } from './tweets.repository.ts';

/** Who is asking: their id and stored role (moderators review held tweets). */
export type TweetViewer = Actor & { id: string };
const staff = (viewer: TweetViewer | null) => can(viewer, 'moderate');

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

  async create(viewer: TweetViewer, form: TweetForm): Promise<Tweet> {
    const { content } = parseWith(createTweetFields, form.fields);
    const id = newId();
    const reviewState = await this.reviewStateOf(viewer, content);
    const imageKey = form.imagePath ? await saveImage(this.ctx.storage, form.imagePath, `${tweetImageFolder(id)}/`, IMAGE_BOX) : null;
    await this.ctx.db.transaction(async (tx) => {
      await new TweetsRepository(tx).insert({ id, ownerId: viewer.id, content, imageKey, reviewState });
      if (reviewState === 'published') await recordEvent(tx, { kind: 'tweetPublished', actorId: viewer.id, tweetId: id });
    });
    return this.one(id, viewer);
  }

  async update(viewer: TweetViewer, id: string, form: TweetForm): Promise<Tweet> {
    await this.ownTweet(viewer.id, id);
    const { content } = parseWith(updateTweetFields, form.fields);
    if (content === undefined && !form.imagePath) throw badRequest('Send new content or a new image');
    // New words are judged again: an edit with a watched word is held, one without is published.
    const reviewState = content === undefined ? undefined : await this.reviewStateOf(viewer, content);
    // Federation hears of the edit (Update of the tweet's Note, or Delete when the edit is held).
    const changed = (tx: Executor) => recordEvent(tx, { kind: 'tweetChanged', actorId: viewer.id, tweetId: id });
    if (!form.imagePath) {
      await this.ctx.db.transaction(async (tx) => {
        await new TweetsRepository(tx).update(id, { content, reviewState });
        await changed(tx);
      });
    } else {
      const imageKey = await saveImage(this.ctx.storage, form.imagePath, `${tweetImageFolder(id)}/`, IMAGE_BOX);
      const updated = await replaceFile(this.ctx.storage, this.ctx.db, imageKey, async (tx) => {
        const repo = new TweetsRepository(tx);
        const row = await repo.lock(id);
        if (!row) return undefined;
        await repo.update(id, { content, imageKey, reviewState });
        await changed(tx);
        return { oldKey: row.imageKey, result: true };
      });
      if (!updated) throw notFound(tweetMessages.notFound);
    }
    return this.one(id, viewer);
  }

  /**
   * Removes the tweet, its comments and their likes; then its image files. `within` joins the
   * transaction (a moderator's deletion writes its log there).
   */
  remove(userId: string, id: string, within?: (tx: Executor) => Promise<void>): Promise<{ _id: string; deletedCount: number }> {
    return this.deleteChecked(
      id,
      (tweet) => {
        if (tweet.ownerId !== userId) throw forbidden('You can only delete your own tweets');
      },
      within,
    );
  }

  async one(id: string, viewer: TweetViewer | null): Promise<Tweet> {
    const row = await this.tweets.findView(id, viewer?.id ?? null, staff(viewer));
    if (!row) throw notFound(tweetMessages.notFound);
    return toTweet(this.ctx.storage, row);
  }

  /** Moderators' queue of held tweets (the caller's right is checked by the route). */
  async held(moderator: TweetViewer, q: PageQuery) {
    const rows = await this.tweets.listHeld(moderator.id, pageWindow(q));
    return pageOf(
      'tweets',
      rows.map((r) => toTweet(this.ctx.storage, r)),
      q,
      (t) => t._id,
    );
  }

  /** A moderator publishes a held tweet. */
  async approve(moderator: TweetViewer, id: string): Promise<Tweet> {
    const tweet = await this.tweets.findById(id);
    if (!tweet) throw notFound(tweetMessages.notFound);
    if (tweet.reviewState !== 'held') throw badRequest(tweetMessages.notHeld);
    await this.ctx.db.transaction(async (tx) => {
      await new TweetsRepository(tx).update(id, { reviewState: 'published' });
      await recordEvent(tx, { kind: 'tweetPublished', actorId: tweet.ownerId, tweetId: id });
    });
    return this.one(id, moderator);
  }

  /** A moderator deletes a held tweet (published ones are left to their owner and take-downs). */
  removeHeld(id: string): Promise<{ _id: string; deletedCount: number }> {
    return this.deleteChecked(id, (tweet) => {
      if (tweet.reviewState !== 'held') throw badRequest(tweetMessages.notHeld);
    });
  }

  private async deleteChecked(
    id: string,
    check: (tweet: TweetRow) => void,
    within?: (tx: Executor) => Promise<void>,
  ): Promise<{ _id: string; deletedCount: number }> {
    const deletedCount = await this.ctx.db.transaction(async (tx) => {
      const repo = new TweetsRepository(tx);
      const tweet = await repo.lock(id);
      if (!tweet) throw notFound(tweetMessages.notFound);
      check(tweet);
      const count = await repo.deleteWithComments(id);
      await recordEvent(tx, { kind: 'tweetChanged', actorId: tweet.ownerId, tweetId: id });
      await within?.(tx);
      return count;
    });
    await this.ctx.storage.deletePrefix(tweetImageFolder(id));
    return { _id: id, deletedCount };
  }

  /** Held when it contains a watched word, unless its author is a moderator (the reviewer). */
  private async reviewStateOf(viewer: TweetViewer, content: string): Promise<ReviewState> {
    return !staff(viewer) && (await new WatchedWordsService(this.ctx).held(content)) ? 'held' : 'published';
  }

  /**
   * A channel's tweets. Pages go from the newest tweets back, and each page is answered oldest
   * first: the spec's client shows the list reversed (spec §7), so it gets the newest on top.
   */
  async byChannel(channelId: string, viewer: TweetViewer | null, q: PageQuery) {
    if (!(await new UsersRepository(this.ctx.db).findById(channelId))) throw notFound('Channel not found');
    const rows = await this.tweets.listByOwner(channelId, viewer?.id ?? null, staff(viewer), pageWindow(q));
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
