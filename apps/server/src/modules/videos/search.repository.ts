import { and, desc, isNotNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { channelColumns, type ChannelRow } from '../users/channels.repository.ts';
import { publicTokenOfV, visibleTo } from './videos.repository.ts';

export type ChannelHit = ChannelRow & { rank: number };

export interface PlaylistHit {
  id: string;
  name: string;
  description: string;
  created_at: Date | string;
  updated_at: Date | string;
  owner_id: string;
  owner_user_name: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
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
      ? sql<number>`GREATEST(word_similarity(${q}, lower(${users.fullName})), word_similarity(${q}, ${users.userName}))::float8`
      : sql<number>`${users.subscriberCount}::float8`;
    const match = q
      ? sql`(${q} <% lower(${users.fullName}) OR ${q} <% ${users.userName} OR strpos(lower(${users.fullName}), ${q}) > 0 OR strpos(${users.userName}, ${q}) > 0)`
      : undefined;
    return this.db
      .select({ ...channelColumns(p.viewerId), rank: rank.mapWith(Number) })
      .from(users)
      .where(and(isNotNull(users.emailVerifiedAt), match, paging(p, rank, sql`${users.id}`).where))
      .orderBy(desc(rank), desc(users.id))
      .limit(p.limit + 1)
      .offset(p.cursor ? 0 : p.offset);
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
            u.id AS owner_id, u.user_name AS owner_user_name, u.full_name AS owner_full_name, u.avatar_key AS owner_avatar_key,
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
