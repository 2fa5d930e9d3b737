import { api } from './api-client.ts';
import type { QueryValue } from './api-types.ts';

/** One page of a list answer: `data: { <listKey>: [...], page, limit, hasNextPage, nextCursor }`. */
export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
  nextCursor: string | null;
}

export const PAGE_SIZE = 10;

/** The array under `listKey` of a list answer. */
export function listOf<T>(data: Record<string, unknown> | null | undefined, listKey: string): T[] {
  const named = data?.[listKey];
  return Array.isArray(named) ? (named as T[]) : [];
}

/** Fetch one page of `path`, reading the items under `listKey`. */
export async function fetchPage<T>(
  path: string,
  listKey: string,
  query: Record<string, QueryValue>,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<T>> {
  const { data } = await api.get<Record<string, unknown>>(path, { limit: PAGE_SIZE, ...query, cursor }, signal);
  const items = listOf<T>(data, listKey);
  const nextCursor = (data?.nextCursor as string | null | undefined) ?? null;
  // An empty page ends loading (spec §4), whatever the server says about more.
  const hasNextPage = items.length > 0 && Boolean(data?.hasNextPage) && nextCursor !== null;
  return { items, hasNextPage, nextCursor };
}

/** Options shared by every cursor-paged infinite query. */
export const cursorPaging = {
  initialPageParam: null as string | null,
  getNextPageParam: <T>(last: Page<T>) => (last.hasNextPage ? last.nextCursor : undefined),
};
