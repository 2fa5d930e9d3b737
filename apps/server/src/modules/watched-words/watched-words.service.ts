import { WATCHED_WORDS_LIMIT, watchedWordMessages, type WatchedWord } from '@glimpse/contract';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { buildMatcher, type WordMatcher } from './watched-words.matcher.ts';
import { WatchedWordsRepository, type WatchedWordRow } from './watched-words.repository.ts';

/** How long a process trusts its compiled list: another API process's change shows within this time. */
const CACHE_MS = 5_000;

/** One compiled matcher per database per process (services are built per route module). */
const cache = new WeakMap<Executor, { matcher: WordMatcher; at: number }>();

const toWatchedWord = (r: WatchedWordRow): WatchedWord => ({ _id: r.id, word: r.word, createdAt: r.createdAt.toISOString() });

/** Watched words (issue #12 item 5): admins keep the list; comments and tweets ask `held`. */
export class WatchedWordsService {
  private readonly words: WatchedWordsRepository;

  constructor(private readonly ctx: Pick<AppContext, 'db'>) {
    this.words = new WatchedWordsRepository(ctx.db);
  }

  /** Whether the text contains a watched word: such content is held for review. */
  async held(text: string): Promise<boolean> {
    return (await this.matcher()).find(text) !== null;
  }

  async list(): Promise<WatchedWord[]> {
    return (await this.words.list()).map(toWatchedWord);
  }

  async add(word: string): Promise<WatchedWord> {
    if ((await this.words.count()) >= WATCHED_WORDS_LIMIT) throw badRequest(watchedWordMessages.full);
    const row = await this.words.insert({ id: newId(), word });
    if (!row) throw conflict(watchedWordMessages.duplicate);
    cache.delete(this.ctx.db);
    return toWatchedWord(row);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.words.delete(id))) throw notFound(watchedWordMessages.notFound);
    cache.delete(this.ctx.db);
  }

  /** The current words as a matcher (cached): for a check made before a transaction opens. */
  async matcher(): Promise<WordMatcher> {
    const hit = cache.get(this.ctx.db);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.matcher;
    const matcher = buildMatcher((await this.words.list()).map((r) => r.word));
    cache.set(this.ctx.db, { matcher, at: Date.now() });
    return matcher;
  }
}
