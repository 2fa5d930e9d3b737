import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

export class RateLimitsRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Counts one hit on a key in one atomic statement: a new or expired key starts a fresh window.
   * Returns the hits in the current window and the milliseconds until it resets.
   */
  async hit(key: string, windowMs: number): Promise<{ hits: number; ttlMs: number }> {
    const [row] = await queryRows<{ hits: number; ttl_ms: number }>(
      this.db,
      sql`INSERT INTO rate_limits AS r (key, hits, resets_at)
          VALUES (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
          ON CONFLICT (key) DO UPDATE SET
            hits = CASE WHEN r.resets_at <= now() THEN 1 ELSE r.hits + 1 END,
            resets_at = CASE WHEN r.resets_at <= now() THEN excluded.resets_at ELSE r.resets_at END
          RETURNING r.hits, greatest(0, ceil(extract(epoch FROM r.resets_at - now()) * 1000))::int AS ttl_ms`,
    );
    return { hits: row!.hits, ttlMs: row!.ttl_ms };
  }

  /** The hits in a key's current window, counting none (0 when there is none or it is over). */
  async hitsNow(key: string): Promise<number> {
    const [row] = await queryRows<{ hits: number }>(this.db, sql`SELECT hits FROM rate_limits WHERE key = ${key} AND resets_at > now()`);
    return row?.hits ?? 0;
  }

  /** Forgets a key's window (a success that ends a run of failures). */
  async reset(key: string): Promise<void> {
    await this.db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
  }

  /** Drops windows that are over (housekeeping). */
  async pruneExpired(): Promise<number> {
    const rows = await queryRows<{ key: string }>(this.db, sql`DELETE FROM rate_limits WHERE resets_at <= now() RETURNING key`);
    return rows.length;
  }
}
