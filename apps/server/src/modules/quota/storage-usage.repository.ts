import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

/**
 * The bytes an account stores (ARCHITECTURE §8). Each video row holds its files' sizes by kind, each
 * live row its thumbnail's; `users.storage_bytes` is their sum, recomputed by `recount` inside the
 * transaction that changed a video's or a live's bytes (so the counter and the rows never
 * disagree), and `upload_bytes` keeps 24 hours of finished uploads for the daily quota.
 */
export class StorageUsageRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Locks the account, then sets its counter to the sum of its videos' bytes. The lock comes first
   * in its own statement, so the sum reads every transaction that recounted before this one.
   */
  async recount(userId: string): Promise<void> {
    await this.db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
    await this.db.execute(
      sql`UPDATE users SET storage_bytes =
            (SELECT coalesce(sum(source_bytes + media_bytes + thumbnail_bytes), 0) FROM videos WHERE owner_id = ${userId})
            + (SELECT coalesce(sum(thumbnail_bytes), 0) FROM lives WHERE owner_id = ${userId})
          WHERE id = ${userId}`,
    );
  }

  /** Stored bytes, and bytes of the uploads finished in the last 24 hours. */
  async usage(userId: string): Promise<{ used: number; daily: number }> {
    const [row] = await queryRows<{ used: number; daily: number }>(
      this.db,
      sql`SELECT coalesce((SELECT storage_bytes FROM users WHERE id = ${userId}), 0)::float8 AS used,
                 (SELECT coalesce(sum(bytes), 0) FROM upload_bytes
                   WHERE user_id = ${userId} AND uploaded_at > now() - interval '24 hours')::float8 AS daily`,
    );
    return row!;
  }

  async recordUpload(userId: string, bytes: number): Promise<void> {
    await this.db.execute(sql`INSERT INTO upload_bytes (user_id, bytes) VALUES (${userId}, ${bytes})`);
  }

  /** Videos from before migration 0740 whose files were never measured (not while a transcode still writes them). */
  async unmeasured(limit: number): Promise<{ id: string; owner_id: string; source_key: string | null; thumbnail_key: string | null }[]> {
    return queryRows(
      this.db,
      sql`SELECT id, owner_id, source_key, thumbnail_key FROM videos
          WHERE NOT storage_measured AND status <> 'processing' ORDER BY id LIMIT ${limit}`,
    );
  }

  /** Records what was measured; false when the video is gone or was measured meanwhile. */
  async setMeasured(videoId: string, bytes: { source: number; media: number; thumbnail: number }): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`UPDATE videos SET source_bytes = ${bytes.source}, media_bytes = ${bytes.media}, thumbnail_bytes = ${bytes.thumbnail}, storage_measured = true
          WHERE id = ${videoId} AND NOT storage_measured RETURNING id`,
    );
    return rows.length > 0;
  }

  /** Live thumbnails from before migration 1080, whose size was never measured. */
  async unmeasuredLiveThumbnails(limit: number): Promise<{ id: string; owner_id: string; thumbnail_key: string }[]> {
    return queryRows(this.db, sql`SELECT id, owner_id, thumbnail_key FROM lives WHERE thumbnail_bytes IS NULL ORDER BY id LIMIT ${limit}`);
  }

  /** Records a live thumbnail's size; false when the live is gone or its thumbnail changed meanwhile. */
  async setLiveThumbnailMeasured(liveId: string, key: string, bytes: number): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`UPDATE lives SET thumbnail_bytes = ${bytes} WHERE id = ${liveId} AND thumbnail_key = ${key} AND thumbnail_bytes IS NULL RETURNING id`,
    );
    return rows.length > 0;
  }

  /** Upload records past the daily window count for nothing (run by the worker's housekeeping). */
  async pruneUploads(): Promise<void> {
    await this.db.execute(sql`DELETE FROM upload_bytes WHERE uploaded_at < now() - interval '24 hours'`);
  }
}
