import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { cursorPaging, fetchPage } from '@/lib/pagination.ts';
import type { Video } from '@/types/api.ts';

/** Home: every published video, most viewed first, 10 per page. */
export const homeVideosQueryOptions = infiniteQueryOptions({
  queryKey: ['videos', 'home'],
  queryFn: ({ pageParam, signal }) => fetchPage<Video>('videos', 'videos', { sortBy: 'views' }, pageParam, signal),
  ...cursorPaging,
});

export const useHomeVideos = () => useInfiniteQuery(homeVideosQueryOptions);
