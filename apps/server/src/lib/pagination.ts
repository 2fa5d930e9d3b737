import { badRequest } from './errors.ts';

export type CursorValue = string | number;

/** Keyset cursors: the sort key of the last row of a page, opaque to clients. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, arity: number): CursorValue[] {
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(values) &&
      values.length === arity &&
      values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
    ) {
      return values as CursorValue[];
    }
  } catch {
    // fall through to the 400 below
  }
  throw badRequest('Invalid cursor');
}

export interface PageInfo {
  page: number;
  limit: number;
  hasNextPage: boolean;
  nextCursor: string | null;
}

/**
 * Repositories fetch `limit + 1` rows; the extra row only tells whether there is a next page.
 * The answer is `{ [key]: items, page, limit, hasNextPage, nextCursor }`.
 */
export function toPage<K extends string, T>(
  key: K,
  rows: T[],
  opts: { page: number; limit: number; cursorOf: (row: T) => CursorValue[] },
): Record<K, T[]> & PageInfo {
  const hasNextPage = rows.length > opts.limit;
  const items = hasNextPage ? rows.slice(0, opts.limit) : rows;
  const last = items[items.length - 1];
  return {
    [key]: items,
    page: opts.page,
    limit: opts.limit,
    hasNextPage,
    nextCursor: hasNextPage && last !== undefined ? encodeCursor(opts.cursorOf(last)) : null,
  } as Record<K, T[]> & PageInfo;
}
