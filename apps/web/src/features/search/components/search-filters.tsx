import clsx from 'clsx';
import type { Filters } from '../api/search-api.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

type Options<K extends keyof Filters> = { key: K; title: MessageKey; options: [Filters[K], MessageKey][] };

const groups = [
  {
    key: 'uploadDate',
    title: 'filter.uploadDate',
    options: [
      ['anytime', 'filter.anytime'],
      ['today', 'filter.today'],
      ['thisWeak', 'filter.thisWeek'],
      ['thisMonth', 'filter.thisMonth'],
      ['thisYear', 'filter.thisYear'],
    ],
  } satisfies Options<'uploadDate'>,
  {
    key: 'type',
    title: 'filter.type',
    options: [
      ['video', 'filter.video'],
      ['playlist', 'filter.playlist'],
      ['channel', 'filter.channel'],
    ],
  } satisfies Options<'type'>,
  {
    key: 'duration',
    title: 'filter.duration',
    options: [
      ['any', 'filter.any'],
      ['short', 'filter.short'],
      ['medium', 'filter.medium'],
      ['long', 'filter.long'],
    ],
  } satisfies Options<'duration'>,
  {
    key: 'sortBy',
    title: 'filter.sortBy',
    options: [
      ['relevance', 'filter.relevance'],
      ['uploadDate', 'filter.uploadDate'],
      ['views', 'filter.views'],
    ],
  } satisfies Options<'sortBy'>,
] as const;

export function SearchFilters({ filters, onChange }: { filters: Filters; onChange: <K extends keyof Filters>(key: K, value: Filters[K]) => void }) {
  return (
    <div className="grid grid-cols-2 gap-4 border-b border-line pb-4 sm:grid-cols-4">
      {groups.map((g) => {
        const locked = g.key !== 'type' && filters.type !== 'video';
        return (
          <fieldset key={g.key} disabled={locked} className={clsx('min-w-0', locked && 'opacity-50')}>
            <legend className="mb-2 border-b border-line pb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">{t(g.title)}</legend>
            <ul className="flex flex-col gap-1">
              {g.options.map(([value, label]) => {
                const active = filters[g.key] === value;
                return (
                  <li key={value}>
                    <button
                      type="button"
                      aria-pressed={active}
                      onClick={() => onChange(g.key, value as never)}
                      className={clsx('rounded px-1 text-left text-sm hover:text-fg', active ? 'font-semibold text-fg' : 'text-fg-muted')}
                    >
                      {t(label)}
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
