import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { PageQuery } from '@glimpse/contract';
import { badRequest } from './errors.ts';
import { isUuid } from './ids.ts';
import { decodeCursor, toPage } from './pagination.ts';

/** What a repository needs for one page: `limit + 1` rows after the cursor row, or at the page's offset. */
export interface PageWindow {
  limit: number;
  offset: number;
  /** Id of the last row of the previous page (keyset), or null for page/offset paging. */
  after: string | null;
}

export function pageWindow(q: PageQuery): PageWindow {
  if (!q.cursor) return { limit: q.limit, offset: (q.page - 1) * q.limit, after: null };
  const [after] = decodeCursor(q.cursor, 1);
  if (typeof after !== 'string' || !isUuid(after)) throw badRequest('Invalid cursor');
  return { limit: q.limit, offset: 0, after };
}

/**
 * Rows that come after the cursor row in `(sort DESC, id DESC)` order (`(sort ASC, id ASC)` with
 * `order: 'asc'`). The cursor row is read back by id so the comparison uses its exact
 * (microsecond) timestamp, which a JS Date would round. `scope` narrows the lookup when `id` alone
 * is not the table's key.
 */
export function afterCursor(
  table: PgTable,
  sort: AnyColumn,
  id: AnyColumn,
  after: string | null,
  scope?: SQL,
  order: 'asc' | 'desc' = 'desc',
): SQL | undefined {
  if (!after) return undefined;
  const where = scope ? sql`${id} = ${after} AND ${scope}` : sql`${id} = ${after}`;
  const op = order === 'asc' ? sql`>` : sql`<`;
  return sql`(${sort}, ${id}) ${op} (SELECT ${sort}, ${id} FROM ${table} WHERE ${where})`;
}

/** The list answer `{ [key]: items, page, limit, hasNextPage, nextCursor }`; the cursor is the last item's id. */
export function pageOf<K extends string, T>(key: K, items: T[], q: PageQuery, idOf: (item: T) => string) {
  return toPage(key, items, { page: q.page, limit: q.limit, cursorOf: (item) => [idOf(item)] });
}
