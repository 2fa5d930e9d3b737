import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { publicTokenOfV, visibleTo } from './videos.repository.ts';

export interface ChannelHit {
  id: string;
  user_name: string;
  full_name: string;
  avatar_key: string | null;
  cover_key: string | null;
  subscriber_count: number;
  video_count: number;
  is_subscribed: boolean;
  created_at: Date | string;
  rank: number;
}

export interface PlaylistHit {
  id: string;
  name: string;
  description: string;
  created_at: Date | string;
  updated_at: Date | string;
  owner_user_name: string;
  owner_full_name: string;
  no_of_videos: number;
  first_video_id: string | null;
  first_thumbnail_key: string | null;
  first_public_token: string | null;
  rank: number;
}

interface Page {
  query?: string;
  viewerId: string | null;
  limit: number;
  offset: number;
  cursor?: CursorValue[];
}

/** `(rank, id) < cursor` when paging by cursor, else OFFSET. */
function paging(p: Page, rank: SQL, idCol: SQL): { where: SQL; tail: SQL } {
  return p.cursor
    ? { where: sql`(${rank}, ${idCol}) < (${p.cursor[0]}::float8, ${p.cursor[1]}::uuid)`, tail: sql`LIMIT ${p.limit + 1}` }
    : { where: sql`true`, tail: sql`LIMIT ${p.limit + 1} OFFSET ${p.offset}` };
}

/** Channels and playlists found by name, with trigram similarity for typos. */
export class SearchRepository {
  constructor(private readonly db: Executor) {}

  /** Without a query, the most subscribed channels come first. Accounts that never verified their email are not listed. */
  async channels(p: Page): Promise<ChannelHit[]> {
    const q = p.query?.toLowerCase();
    const rank = q
      ? sql`GREATEST(word_similarity(${q}, lower(u.full_name)), word_similarity(${q}, u.user_name))::float8`
      : sql`u.subscriber_count::float8`;
    const match = q
      ? sql`(${q} <% lower(u.full_name) OR ${q} <% u.user_name OR strpos(lower(u.full_name), ${q}) > 0 OR strpos(u.user_name, ${q}) > 0)`
      : sql`true`;
    const page = paging(p, rank, sql`u.id`);
    return queryRows<ChannelHit>(
      this.db,
      sql`SELECT u.id, u.user_name, u.full_name, u.avatar_key, u.cover_key, u.subscriber_count, u.created_at,
            (SELECT count(*) FROM videos v WHERE v.owner_id = u.id AND v.is_published AND v.status = 'ready')::int AS video_count,
            EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = u.id AND s.subscriber_id = ${p.viewerId}::uuid) AS is_subscribed,
            ${rank} AS rank
          FROM users u
          WHERE u.email_verified_at IS NOT NULL AND ${match} AND ${page.where}
          ORDER BY ${rank} DESC, u.id DESC ${page.tail}`,
    );
  }

  /** Playlists by name; counts and first video cover only what the viewer may see. */
  async playlists(p: Page): Promise<PlaylistHit[]> {
    const q = p.query?.toLowerCase();
    const rank = q ? sql`word_similarity(${q}, lower(pl.name))::float8` : sql`extract(epoch FROM pl.updated_at)::float8`;
    const match = q ? sql`(${q} <% lower(pl.name) OR strpos(lower(pl.name), ${q}) > 0)` : sql`true`;
    const page = paging(p, rank, sql`pl.id`);
    const visible = visibleTo(p.viewerId);
    return queryRows<PlaylistHit>(
      this.db,
      sql`SELECT pl.id, pl.name, pl.description, pl.created_at, pl.updated_at,
            u.user_name AS owner_user_name, u.full_name AS owner_full_name,
            (SELECT count(*) FROM playlist_videos pv JOIN videos v ON v.id = pv.video_id
              WHERE pv.playlist_id = pl.id AND ${visible})::int AS no_of_videos,
            fv.id AS first_video_id, fv.thumbnail_key AS first_thumbnail_key, fv.public_token AS first_public_token,
            ${rank} AS rank
          FROM playlists pl JOIN users u ON u.id = pl.owner_id
          LEFT JOIN LATERAL (
            SELECT v.id, v.thumbnail_key, ${publicTokenOfV} AS public_token FROM playlist_videos pv JOIN videos v ON v.id = pv.video_id
            WHERE pv.playlist_id = pl.id AND ${visible} ORDER BY pv.position, pv.added_at LIMIT 1
          ) fv ON true
          WHERE ${match} AND ${page.where}
          ORDER BY ${rank} DESC, pl.id DESC ${page.tail}`,
    );
  }
}
