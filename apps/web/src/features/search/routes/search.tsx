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
import { RemoteFollow } from '../components/remote-follow.tsx';
import { isRemoteHandle } from '@/lib/federation.ts';
import { useInstance } from '@/lib/public-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

const empty = {
  video: { kind: 'video', title: 'search.noVideos', text: 'search.noVideosText' },
  playlist: { kind: 'playlist', title: 'search.noPlaylists', text: 'search.tryOther' },
  channel: { kind: 'channel', title: 'search.noChannels', text: 'search.tryOther' },
} as const;

export default function SearchRoute() {
  const [params] = useSearchParams();
  const searchText = (params.get('searchText') ?? '').trim();
  useDocumentTitle(searchText ? t('search.titleOf', { text: searchText }) : t('shell.search'));
  const { instance } = useInstance();
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

  if (!searchText) return <EmptyState kind="video" title={t('search.searchInstance', { name: instance.name })} text={t('search.typeHint')} />;

  return (
    <div className="mx-auto max-w-5xl px-4 py-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h1 className="min-w-0 text-sm text-fg-muted [overflow-wrap:anywhere]">
          {t('search.resultsFor')} <span className="font-semibold text-fg">{searchText}</span>
        </h1>
        <button
          type="button"
          aria-expanded={showFilters}
          onClick={() => setShowFilters((v) => !v)}
          className={clsx('flex h-9 shrink-0 items-center gap-2 rounded-full px-3 text-sm font-medium hover:bg-surface-subtle', showFilters && 'bg-surface-subtle')}
        >
          <SlidersHorizontal className="size-4" aria-hidden />
          {t('search.filters')}
        </button>
      </div>
      {isRemoteHandle(searchText) && <RemoteFollow handle={searchText} />}
      {showFilters && <SearchFilters filters={filters} onChange={(key, value) => setFilters((f) => applyFilter(f, key, value))} />}
      <div className="mt-4">
        {q.isPending ? (
          <Spinner label={t('search.searching')} />
        ) : results.length === 0 ? (
          <EmptyState kind={empty[filters.type].kind} title={t(empty[filters.type].title)} text={t(empty[filters.type].text)} />
        ) : (
          <ul className="flex flex-col gap-6" aria-label={t('search.results')}>
            {results.map((r) => (
              <li key={`${r.type}-${r.item._id}`}>
                {r.type === 'video' ? <VideoCard video={r.item} layout="responsive" from="search" /> : r.type === 'playlist' ? <PlaylistRow playlist={r.item} /> : <ChannelRow channel={r.item} />}
              </li>
            ))}
          </ul>
        )}
        <InfiniteSentinel hasMore={q.hasNextPage && !q.isError} loading={q.isFetchingNextPage} onVisible={() => void q.fetchNextPage()} />
      </div>
    </div>
  );
}
