import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';
import type { Channel, PlaylistSummary, Video } from '@/types/api.ts';

export type UploadDate = 'anytime' | 'today' | 'thisWeak' | 'thisMonth' | 'thisYear';
export type SearchType = 'video' | 'playlist' | 'channel';
export type Duration = 'any' | 'short' | 'medium' | 'long';
export type SortBy = 'relevance' | 'uploadDate' | 'views';

export interface Filters {
  uploadDate: UploadDate;
  type: SearchType;
  duration: Duration;
  sortBy: SortBy;
}

export const defaultFilters: Filters = { uploadDate: 'anytime', type: 'video', duration: 'any', sortBy: 'relevance' };

/** Changing the type resets the other filters; playlist and channel searches keep them at their defaults (spec §2). */
export function applyFilter<K extends keyof Filters>(current: Filters, key: K, value: Filters[K]): Filters {
  if (key === 'type') return { ...defaultFilters, type: value as SearchType };
  if (current.type !== 'video') return current;
  return { ...current, [key]: value };
}

export type SearchResult =
  | { type: 'video'; item: Video }
  | { type: 'playlist'; item: PlaylistSummary }
  | { type: 'channel'; item: Channel };

export const searchQueryOptions = (searchText: string, filters: Filters, stamp: string) =>
  infiniteQueryOptions({
    // The timestamp makes a repeated search with the same text fetch again.
    queryKey: ['search', searchText, filters, stamp],
    queryFn: async ({ pageParam, signal }) => {
      // Every search type answers its items at `data.data` (spec §7's "data list").
      const page = await fetchPage<SearchResult['item']>('videos', 'data', { query: searchText, ...filters }, pageParam, signal);
      return { ...page, items: page.items.map((item) => ({ type: filters.type, item }) as SearchResult) };
    },
    enabled: searchText.trim() !== '',
    ...cursorPaging,
  });

export const useSearch = (searchText: string, filters: Filters, stamp: string) => useInfiniteQuery(searchQueryOptions(searchText, filters, stamp));
