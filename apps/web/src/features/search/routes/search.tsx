import clsx from 'clsx';
import { SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { VideoCard } from '@/components/media/video-card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { applyFilter, defaultFilters, useSearch, type Filters } from '../api/search-api.ts';
import { SearchFilters } from '../components/search-filters.tsx';
import { ChannelRow, PlaylistRow } from '../components/result-rows.tsx';

const empty = {
  video: { kind: 'video', title: 'No videos found', text: 'Try different keywords or remove search filters.' },
  playlist: { kind: 'playlist', title: 'No playlists found', text: 'Try different keywords.' },
  channel: { kind: 'channel', title: 'No channels found', text: 'Try different keywords.' },
} as const;

export default function SearchRoute() {
  const [params] = useSearchParams();
  const searchText = (params.get('searchText') ?? '').trim();
  const stamp = params.get('t') ?? '';
  const [filters, setFilters] = useState<Filters>(defaultFilters);
  const [showFilters, setShowFilters] = useState(false);
  // A new search starts from the default filters.
  const [searchKey, setSearchKey] = useState(`${searchText}|${stamp}`);
  if (searchKey !== `${searchText}|${stamp}`) {
    setSearchKey(`${searchText}|${stamp}`);
    setFilters(defaultFilters);
  }
  const q = useSearch(searchText, filters, stamp);
  const results = q.data?.pages.flatMap((p) => p.items) ?? [];

  if (!searchText) return <EmptyState kind="video" title="Search Glimpse" text="Type in the search box to find videos, playlists and channels." />;

  return (
    <div className="mx-auto max-w-5xl px-4 py-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h1 className="truncate text-sm text-zinc-600">
          Results for <span className="font-semibold text-zinc-900">{searchText}</span>
        </h1>
        <button
          type="button"
          aria-expanded={showFilters}
          onClick={() => setShowFilters((v) => !v)}
          className={clsx('flex h-9 items-center gap-2 rounded-full px-3 text-sm font-medium hover:bg-zinc-100', showFilters && 'bg-zinc-100')}
        >
          <SlidersHorizontal className="size-4" aria-hidden />
          Filters
        </button>
      </div>
      {showFilters && <SearchFilters filters={filters} onChange={(key, value) => setFilters((f) => applyFilter(f, key, value))} />}
      <div className="mt-4">
        {q.isPending ? (
          <Spinner label="Searching" />
        ) : results.length === 0 ? (
          <EmptyState {...empty[filters.type]} />
        ) : (
          <ul className="flex flex-col gap-6" aria-label="Search results">
            {results.map((r) => (
              <li key={`${r.type}-${r.item._id}`}>
                {r.type === 'video' ? <VideoCard video={r.item} layout="responsive" /> : r.type === 'playlist' ? <PlaylistRow playlist={r.item} /> : <ChannelRow channel={r.item} />}
              </li>
            ))}
          </ul>
        )}
        <InfiniteSentinel hasMore={q.hasNextPage && !q.isError} loading={q.isFetchingNextPage} onVisible={() => void q.fetchNextPage()} />
      </div>
    </div>
  );
}
