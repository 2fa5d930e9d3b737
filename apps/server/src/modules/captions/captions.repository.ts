import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { videoCaptions } from '../../db/schema.ts';

export type CaptionRow = Omit<typeof videoCaptions.$inferSelect, 'body'>;

const listed = {
  videoId: videoCaptions.videoId,
  lang: videoCaptions.lang,
  label: videoCaptions.label,
  storageKey: videoCaptions.storageKey,
  bytes: videoCaptions.bytes,
  updatedAt: videoCaptions.updatedAt,
};

export class CaptionsRepository {
  constructor(private readonly db: Executor) {}

  async list(videoId: string): Promise<CaptionRow[]> {
    return this.db.select(listed).from(videoCaptions).where(eq(videoCaptions.videoId, videoId)).orderBy(asc(videoCaptions.lang));
  }

  async find(videoId: string, lang: string): Promise<CaptionRow | undefined> {
    const [row] = await this.db
      .select(listed)
      .from(videoCaptions)
      .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.lang, lang)))
      .limit(1);
    return row;
  }

  async findByKey(videoId: string, storageKey: string): Promise<CaptionRow | undefined> {
    const [row] = await this.db
      .select(listed)
      .from(videoCaptions)
      .where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.storageKey, storageKey)))
      .limit(1);
    return row;
  }

  async countFor(videoId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(videoCaptions).where(eq(videoCaptions.videoId, videoId));
    return Number(row?.n ?? 0);
  }

  /** Inserts or replaces the language's captions. */
  async upsert(row: typeof videoCaptions.$inferInsert): Promise<void> {
    await this.db
      .insert(videoCaptions)
      .values(row)
      .onConflictDoUpdate({
        target: [videoCaptions.videoId, videoCaptions.lang],
        set: { label: row.label, storageKey: row.storageKey, bytes: row.bytes, body: row.body, updatedAt: new Date() },
      });
  }

  async delete(videoId: string, lang: string): Promise<void> {
    await this.db.delete(videoCaptions).where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.lang, lang)));
  }
}
