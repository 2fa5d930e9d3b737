import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

export interface SessionRow {
  user_id: string;
  unique_id: string;
  total_chunks: number;
}

/** What one account's unfinished uploads hold, seen from an incoming chunk. */
export interface UploadUsage {
  openSessions: number;
  sessionExists: boolean;
  /** Bytes of every chunk the account holds, except the one this chunk replaces. */
  heldBytes: number;
  /** Bytes of this session's other chunks. */
  sessionBytes: number;
}

export class UploadsRepository {
  constructor(private readonly db: Executor) {}

  /** Serialises one account's chunk admissions until the transaction ends (the bounds are checked, then used). */
  async lockOwner(userId: string): Promise<void> {
    await this.db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
  }

  async usage(userId: string, uniqueId: string, chunkNumber: number): Promise<UploadUsage> {
    const [row] = await queryRows<{ open_sessions: number; session_exists: boolean; held_bytes: number; session_bytes: number }>(
      this.db,
      sql`SELECT
            (SELECT count(*) FROM upload_sessions WHERE user_id = ${userId})::int AS open_sessions,
            EXISTS (SELECT 1 FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}) AS session_exists,
            (SELECT coalesce(sum(size), 0) FROM upload_chunks
              WHERE user_id = ${userId} AND NOT (unique_id = ${uniqueId} AND chunk_number = ${chunkNumber}))::float8 AS held_bytes,
            (SELECT coalesce(sum(size), 0) FROM upload_chunks
              WHERE user_id = ${userId} AND unique_id = ${uniqueId} AND chunk_number <> ${chunkNumber})::float8 AS session_bytes`,
    );
    return { openSessions: row!.open_sessions, sessionExists: row!.session_exists, heldBytes: row!.held_bytes, sessionBytes: row!.session_bytes };
  }

  /** The session, created on its first chunk. */
  async open(userId: string, uniqueId: string, totalChunks: number): Promise<SessionRow> {
    await this.db.execute(
      sql`INSERT INTO upload_sessions (user_id, unique_id, total_chunks) VALUES (${userId}, ${uniqueId}, ${totalChunks})
          ON CONFLICT (user_id, unique_id) DO NOTHING`,
    );
    return (await this.find(userId, uniqueId))!;
  }

  async find(userId: string, uniqueId: string): Promise<SessionRow | undefined> {
    const [row] = await queryRows<SessionRow>(
      this.db,
      sql`SELECT user_id, unique_id, total_chunks FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}`,
    );
    return row;
  }

  async chunks(userId: string, uniqueId: string): Promise<{ chunk_number: number; size: number }[]> {
    return queryRows(
      this.db,
      sql`SELECT chunk_number, size::float8 AS size FROM upload_chunks
          WHERE user_id = ${userId} AND unique_id = ${uniqueId} ORDER BY chunk_number`,
    );
  }

  async addChunk(userId: string, uniqueId: string, chunkNumber: number, size: number): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO upload_chunks (user_id, unique_id, chunk_number, size) VALUES (${userId}, ${uniqueId}, ${chunkNumber}, ${size})
          ON CONFLICT (user_id, unique_id, chunk_number) DO UPDATE SET size = EXCLUDED.size`,
    );
    await this.db.execute(sql`UPDATE upload_sessions SET updated_at = now() WHERE user_id = ${userId} AND unique_id = ${uniqueId}`);
  }

  /** Marks the session as being assembled; false when another request is already doing it. */
  async claimFinalize(userId: string, uniqueId: string): Promise<boolean> {
    const rows = await queryRows<{ unique_id: string }>(
      this.db,
      sql`UPDATE upload_sessions SET finalizing_at = now(), updated_at = now()
          WHERE user_id = ${userId} AND unique_id = ${uniqueId}
            AND (finalizing_at IS NULL OR finalizing_at < now() - interval '15 minutes')
          RETURNING unique_id`,
    );
    return rows.length > 0;
  }

  async releaseFinalize(userId: string, uniqueId: string): Promise<void> {
    await this.db.execute(sql`UPDATE upload_sessions SET finalizing_at = NULL WHERE user_id = ${userId} AND unique_id = ${uniqueId}`);
  }

  async remove(userId: string, uniqueId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}`);
  }

  /** Deletes sessions idle for longer than the TTL and returns them (their files go next). */
  async removeIdle(ttlHours: number): Promise<SessionRow[]> {
    return queryRows<SessionRow>(
      this.db,
      sql`DELETE FROM upload_sessions WHERE updated_at < now() - make_interval(hours => ${ttlHours})
          RETURNING user_id, unique_id, total_chunks`,
    );
  }
}
