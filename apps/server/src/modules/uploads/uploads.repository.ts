import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

export interface SessionRow {
  user_id: string;
  unique_id: string;
  total_chunks: number;
}

/** A chunk's admission (the migration 1060 function): 'ok' recorded it; anything else changed nothing. */
export type Admission =
  | { outcome: 'ok'; received: number[]; receivedBytes: number; created: boolean; replacedKey: string | null }
  | { outcome: 'no_account' | 'suspended' | 'revoked' }
  | { outcome: 'finalizing' | 'cancelled' }
  | { outcome: 'total_mismatch'; totalChunks: number }
  | { outcome: 'numbering'; received: number[] }
  | { outcome: 'too_many_open'; openSessions: number }
  | { outcome: 'too_large' }
  | { outcome: 'too_much_held'; heldBytes: number };

export interface ChunkRecord {
  userId: string;
  /** The login session (token `sid`) the chunk is sent under: admitted only while it lives. */
  sessionId: string | null;
  uniqueId: string;
  totalChunks: number;
  chunkNumber: number;
  size: number;
  objectKey: string;
}

export interface AdmissionBounds {
  sessionBytes: number;
  heldBytes: number;
  openSessions: number;
}

/** Cancelled uploads remembered per account: bounded, whatever a client sends. */
const CANCELS_KEPT = 100;

export class UploadsRepository {
  constructor(private readonly db: Executor) {}

  /** Serialises one account's chunk admissions until the transaction ends (the bounds are checked, then used). */
  async lockOwner(userId: string): Promise<void> {
    await this.db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
  }

  /**
   * Checks the account (state, and that the token's session lives: what the viewer plugin reads on
   * other routes), then the bounds, and records the chunk in one statement (one round trip per
   * chunk), one chunk of an account at a time (the function takes the account's row lock before reading).
   * Its commit does not wait for the WAL's flush to disk (`synchronous_commit` off for this
   * statement's transaction, ADR 025): the flush was most of the time an account's row lock was
   * held, so parallel chunks of one upload queued behind it. A database crash may forget the last
   * chunks admitted (as the chunk files themselves, never fsync'd, may be lost by a machine's
   * crash): the last chunk then answers which are missing, and the client sends them again.
   */
  async admit(c: ChunkRecord, bounds: AdmissionBounds): Promise<Admission> {
    const [row] = await queryRows<{
      outcome: Admission['outcome'];
      total_chunks: number;
      received: number[] | null;
      received_bytes: number | null;
      created: boolean;
      replaced_key: string | null;
      open_sessions: number | null;
      held_bytes: number | null;
    }>(
      this.db,
      sql`SELECT a.* FROM upload_admit_chunk(${c.userId}, ${c.uniqueId}, ${c.totalChunks}, ${c.chunkNumber}, ${c.size}, ${c.objectKey},
            ${bounds.sessionBytes}, ${bounds.heldBytes}, ${bounds.openSessions}, ${c.sessionId}::uuid) AS a, set_config('synchronous_commit', 'off', true)`,
    );
    const r = row!;
    switch (r.outcome) {
      case 'ok':
        return { outcome: 'ok', received: r.received ?? [], receivedBytes: r.received_bytes ?? 0, created: r.created, replacedKey: r.replaced_key };
      case 'finalizing':
      case 'cancelled':
      case 'no_account':
      case 'suspended':
      case 'revoked':
        return { outcome: r.outcome };
      case 'total_mismatch':
        return { outcome: r.outcome, totalChunks: r.total_chunks };
      case 'numbering':
        return { outcome: r.outcome, received: r.received ?? [] };
      case 'too_many_open':
        return { outcome: r.outcome, openSessions: r.open_sessions ?? 0 };
      case 'too_much_held':
        return { outcome: r.outcome, heldBytes: r.held_bytes ?? 0 };
      default:
        return { outcome: 'too_large' };
    }
  }

  async find(userId: string, uniqueId: string): Promise<SessionRow | undefined> {
    const [row] = await queryRows<SessionRow>(
      this.db,
      sql`SELECT user_id, unique_id, total_chunks FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}`,
    );
    return row;
  }

  async chunks(userId: string, uniqueId: string): Promise<{ chunk_number: number; size: number; object_key: string }[]> {
    return queryRows(
      this.db,
      sql`SELECT chunk_number, size::float8 AS size, object_key FROM upload_chunks
          WHERE user_id = ${userId} AND unique_id = ${uniqueId} ORDER BY chunk_number`,
    );
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

  /**
   * Deletes the session unless a last chunk is being assembled from it (its claim, as claimFinalize reads it);
   * true when it was deleted. Call under the account's lock, so no claim can start meanwhile.
   */
  async removeUnclaimed(userId: string, uniqueId: string): Promise<boolean> {
    const rows = await queryRows<{ unique_id: string }>(
      this.db,
      sql`DELETE FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}
            AND (finalizing_at IS NULL OR finalizing_at < now() - interval '15 minutes')
          RETURNING unique_id`,
    );
    return rows.length > 0;
  }

  /**
   * Remembers that the client cancelled this upload (migration 1072), keeping the account's newest
   * CANCELS_KEPT: a chunk already on its way is then refused rather than opening the session again.
   */
  async markCancelled(userId: string, uniqueId: string): Promise<void> {
    await this.db.execute(
      sql`WITH mark AS (
            INSERT INTO upload_cancels (user_id, unique_id) VALUES (${userId}, ${uniqueId})
            ON CONFLICT (user_id, unique_id) DO UPDATE SET cancelled_at = now())
          DELETE FROM upload_cancels WHERE user_id = ${userId} AND unique_id IN (
            SELECT unique_id FROM upload_cancels WHERE user_id = ${userId} AND unique_id <> ${uniqueId}
            ORDER BY cancelled_at DESC OFFSET ${CANCELS_KEPT - 1})`,
    );
  }

  /** Forgets cancellations older than the session TTL (no chunk sent before one is still on its way). */
  async forgetCancels(ttlHours: number): Promise<void> {
    await this.db.execute(sql`DELETE FROM upload_cancels WHERE cancelled_at < now() - make_interval(hours => ${ttlHours})`);
  }

  async remove(userId: string, uniqueId: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM upload_sessions WHERE user_id = ${userId} AND unique_id = ${uniqueId}`);
  }

  /**
   * Deletes up to `limit` sessions idle for longer than the TTL and returns them (their chunk
   * objects go next): bounded work per sweep, oldest first; several workers skip each other's rows.
   */
  async removeIdle(ttlHours: number, limit: number): Promise<SessionRow[]> {
    return queryRows<SessionRow>(
      this.db,
      sql`DELETE FROM upload_sessions WHERE (user_id, unique_id) IN (
            SELECT user_id, unique_id FROM upload_sessions WHERE updated_at < now() - make_interval(hours => ${ttlHours})
            ORDER BY updated_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING user_id, unique_id, total_chunks`,
    );
  }
}
