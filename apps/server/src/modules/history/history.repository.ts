import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { listedTo, videoSelect, type VideoRow } from '../videos/videos.repository.ts';

export class HistoryRepository {
  constructor(private readonly db: Executor) {}

  /** Newest first; videos since unpublished by others drop out (visibility rule). */
  async list(userId: string, p: { limit: number; offset: number; cursor?: CursorValue[] }): Promise<VideoRow[]> {
    const keyset = p.cursor
      ? sql`AND (h.watched_at, h.video_id) < (${p.cursor[0]}::timestamptz, ${p.cursor[1]}::uuid)`
      : sql``;
    return queryRows<VideoRow>(
      this.db,
      sql`${videoSelect(userId)}, h.watched_at, h.watched_at::text AS watched_key, h.position_seconds::float8 AS position_seconds
          FROM watch_history h JOIN videos v ON v.id = h.video_id JOIN users u ON u.id = v.owner_id
          WHERE h.user_id = ${userId} AND ${listedTo(userId)} ${keyset}
          ORDER BY h.watched_at DESC, h.video_id DESC
          LIMIT ${p.limit + 1} ${p.cursor ? sql`` : sql`OFFSET ${p.offset}`}`,
    );
  }
}
