import type { QueryClient } from '@tanstack/react-query';
import { firstPaintPage } from '@glimpse/contract/first-paint';
import { defaultFilters, searchQueryOptions } from '@/features/search/api/search-api.ts';
import { homeVideosQueryOptions, similarVideosQueryOptions, videoQueryOptions } from '@/features/videos/api/videos-api.ts';
import { configQueryOptions } from '@/lib/public-config.ts';

/**
 * Fills the query cache for the first screen and the instance's config through their own query
 * options; their GETs are answered by the page's embedded data (lib/first-data.ts), so no request
 * leaves and the first render already has its data (ADR 017).
 */
export async function seedFirstScreen(queryClient: QueryClient, location: Location): Promise<void> {
  const params = new URLSearchParams(location.search);
  const first = firstPaintPage(location.pathname, params);
  const config = queryClient.prefetchQuery(configQueryOptions);
  if (first?.page === 'home') await queryClient.prefetchInfiniteQuery(homeVideosQueryOptions);
  else if (first?.page === 'search') {
    const searchText = (params.get('searchText') ?? '').trim();
    if (searchText) await queryClient.prefetchInfiniteQuery(searchQueryOptions(searchText, defaultFilters, params.get('t') ?? ''));
  } else if (first?.page === 'watch' && first.videoId) {
    // The comments are not a cached query: the comment section's own first GET takes its answer.
    const id = decodeURIComponent(first.videoId);
    await Promise.all([queryClient.prefetchQuery(videoQueryOptions(id)), queryClient.prefetchQuery(similarVideosQueryOptions(id))]);
  }
  await config;
}
