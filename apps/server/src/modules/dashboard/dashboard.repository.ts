import { sql } from 'drizzle-orm';
import type { ChannelStats } from '@glimpse/contract';
import { queryRows, type Executor } from '../../db/client.ts';

export class DashboardRepository {
  constructor(private readonly db: Executor) {}

  /** Totals over all of the channel's videos (drafts included: it is the owner's own dashboard). */
  async stats(ownerId: string): Promise<ChannelStats> {
    const [row] = await queryRows<ChannelStats>(
      this.db,
      sql`SELECT COALESCE(sum(v.views), 0)::float8 AS "totalViews",
            (SELECT subscriber_count FROM users WHERE id = ${ownerId})::int AS "totalSubscribers",
            COALESCE(sum(v.likes), 0)::int AS "totalLikes",
            COALESCE(sum(v.comments_count), 0)::int AS "totalComments",
            count(v.id)::int AS "totalVideos"
          FROM videos v WHERE v.owner_id = ${ownerId}`,
    );
    return row!;
  }
}
