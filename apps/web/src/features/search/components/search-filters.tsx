import clsx from 'clsx';
import type { Filters } from '../api/search-api.ts';

type Options<K extends keyof Filters> = { key: K; title: string; options: [Filters[K], string][] };

const groups = [
  {
    key: 'uploadDate',
    title: 'Upload date',
    options: [
      ['anytime', 'Anytime'],
      ['today', 'Today'],
      ['thisWeak', 'This week'],
      ['thisMonth', 'This month'],
      ['thisYear', 'This year'],
    ],
  } satisfies Options<'uploadDate'>,
  {
    key: 'type',
    title: 'Type',
    options: [
      ['video', 'Video'],
      ['playlist', 'Playlist'],
      ['channel', 'Channel'],
    ],
  } satisfies Options<'type'>,
  {
    key: 'duration',
    title: 'Duration',
    options: [
      ['any', 'Any'],
      ['short', 'Under 4 minutes'],
      ['medium', '5-15 minutes'],
      ['long', 'Over 15 minutes'],
    ],
  } satisfies Options<'duration'>,
  {
    key: 'sortBy',
    title: 'Sort by',
    options: [
      ['relevance', 'Relevance'],
      ['uploadDate', 'Upload date'],
      ['views', 'View count'],
    ],
  } satisfies Options<'sortBy'>,
] as const;

export function SearchFilters({ filters, onChange }: { filters: Filters; onChange: <K extends keyof Filters>(key: K, value: Filters[K]) => void }) {
  return (
    <div className="grid grid-cols-2 gap-4 border-b border-zinc-200 pb-4 sm:grid-cols-4">
      {groups.map((g) => {
        const locked = g.key !== 'type' && filters.type !== 'video';
        return (
          <fieldset key={g.key} disabled={locked} className={clsx('min-w-0', locked && 'opacity-50')}>
            <legend className="mb-2 border-b border-zinc-200 pb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600">{g.title}</legend>
            <ul className="flex flex-col gap-1">
              {g.options.map(([value, label]) => {
                const active = filters[g.key] === value;
                return (
                  <li key={value}>
                    <button
                      type="button"
                      aria-pressed={active}
                      onClick={() => onChange(g.key, value as never)}
                      className={clsx('rounded px-1 text-left text-sm hover:text-zinc-950', active ? 'font-semibold text-zinc-950' : 'text-zinc-600')}
                    >
                      {label}
                    </button>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        );
      })}
    </div>
  );
}
