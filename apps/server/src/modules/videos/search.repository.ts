import { and, desc, isNotNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { CursorValue } from '../../lib/pagination.ts';
import { accountVisibleTo } from '../../policy/content-state.ts';
import { channelColumns, type ChannelRow } from '../users/channels.repository.ts';
import { listedTo, publicTokenOfV } from './videos.repository.ts';

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

/** A query word is corrected to the nearest catalogue word at least this similar (pg_trgm similarity). */
export const MIN_WORD_SIMILARITY = 0.4;
/** Words shorter than this are never corrected: too many real words lie one letter away. */
const MIN_CORRECTED_LENGTH = 4;
/** A query's words, as migration 1000's search_words_of splits titles and descriptions. */
const WORD = /\p{L}+/gu;

/** How long, and for how many word lists, the corrections found are reused. */
const FIXES_KEPT_MS = 30_000;
const FIXES_KEPT = 1_000;

/** Channels and playlists found by name, with trigram similarity for typos; query words corrected against the catalogue's. */
export class SearchRepository {
  private readonly kept = new Map<string, { fix: Promise<Map<string, string>>; until: number }>();

  constructor(private readonly db: Executor) {}

  /**
   * The query with each word the catalogue does not hold replaced by the nearest word it does
   * (search_words' trigram index: one probe per word, whatever the catalogue's size),
   * or undefined when no word needed or found a correction (ADR 016).
   */
  async corrected(query: string): Promise<string | undefined> {
    const terms = [...new Set(query.toLowerCase().match(WORD) ?? [])].filter((w) => w.length >= MIN_CORRECTED_LENGTH && w.length <= 40);
    if (terms.length === 0) return undefined;
    const fix = await this.fixes(terms.join(' '));
    if (fix.size === 0) return undefined;
    return query.replace(WORD, (w) => fix.get(w.toLowerCase()) ?? w);
  }

  /**
   * The corrections of a list of words, each list's kept for FIXES_KEPT_MS: popular searches repeat,
   * and the probe was a second statement per search (ADR 025, ninth round). A word the catalogue
   * learns meanwhile is corrected to at most that late; the search still matches the words as typed.
   */
  private fixes(terms: string): Promise<Map<string, string>> {
    const now = Date.now();
    const kept = this.kept.get(terms);
    if (kept && kept.until > now) return kept.fix;
    if (this.kept.size >= FIXES_KEPT) this.kept.delete(this.kept.keys().next().value!);
    const fix = this.probe(terms);
    this.kept.set(terms, { fix, until: now + FIXES_KEPT_MS });
    fix.catch(() => this.kept.delete(terms));
    return fix;
  }

  private async probe(terms: string): Promise<Map<string, string>> {
    const fixes = await queryRows<{ term: string; word: string }>(
      this.db,
      sql`WITH unknown AS MATERIALIZED (
            SELECT term FROM unnest(string_to_array(${terms}, ' ')) AS t(term)
            WHERE NOT EXISTS (SELECT 1 FROM search_words e WHERE e.word = t.term)
          )
          SELECT t.term, n.word FROM unknown t
          CROSS JOIN LATERAL (SELECT w.word FROM search_words w WHERE w.word % t.term ORDER BY w.word <-> t.term LIMIT 1) n
          WHERE similarity(n.word, t.term) >= ${MIN_WORD_SIMILARITY}`,
    );
    return new Map(fixes.map((f) => [f.term, f.word]));
  }

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
      .where(and(isNotNull(users.emailVerifiedAt), accountVisibleTo(users.id, null), match, paging(p, rank, sql`${users.id}`).where))
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
    const visible = listedTo(p.viewerId);
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
          WHERE ${match} AND ${accountVisibleTo(sql.raw('u.id'), p.viewerId)} AND ${page.where}
          ORDER BY ${rank} DESC, pl.id DESC ${page.tail}`,
    );
  }
}
