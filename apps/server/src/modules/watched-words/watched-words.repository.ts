import { asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { watchedWords } from '../../db/schema.ts';

export type WatchedWordRow = typeof watchedWords.$inferSelect;

export class WatchedWordsRepository {
  constructor(private readonly db: Executor) {}

  /** The whole list (bounded by the service's cap), alphabetical whatever the case. */
  list(): Promise<WatchedWordRow[]> {
    return this.db.select().from(watchedWords).orderBy(asc(sql`lower(${watchedWords.word})`), asc(watchedWords.id));
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(watchedWords);
    return row?.n ?? 0;
  }

  /** Inserts the word unless one equal to it whatever the case exists; undefined then. */
  async insert(row: { id: string; word: string }): Promise<WatchedWordRow | undefined> {
    const [created] = await this.db
      .insert(watchedWords)
      .values(row)
      .onConflictDoNothing()
      .returning();
    return created;
  }

  async delete(id: string): Promise<boolean> {
    const removed = await this.db.delete(watchedWords).where(eq(watchedWords.id, id)).returning({ id: watchedWords.id });
    return removed.length > 0;
  }
}
