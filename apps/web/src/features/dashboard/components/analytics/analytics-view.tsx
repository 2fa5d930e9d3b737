import { analyticsRanges, type AnalyticsDay, type AnalyticsRange, type AnalyticsTotals, type ChannelAnalytics, type TrafficSource } from '@glimpse/contract';
import clsx from 'clsx';
import { ArrowLeft, Download } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatAxisDays, formatCount, formatDay, formatDuration, formatPercent, formatWatchTime } from '@/lib/format.ts';
import { LineAreaChart } from './line-chart.tsx';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const rangeLabels: Record<AnalyticsRange, MessageKey> = {
  '7d': 'analytics.range7',
  '28d': 'analytics.range28',
  '90d': 'analytics.range90',
  '365d': 'analytics.range365',
  lifetime: 'analytics.lifetime',
};

/** The frame of both analytics pages: title, back link, range, CSV download, then the figures or their state. */
export function AnalyticsFrame({
  title,
  back,
  range,
  onRange,
  onDownload,
  query,
  children,
}: {
  title: string;
  back: { to: string; label: string };
  range: AnalyticsRange;
  onRange: (range: AnalyticsRange) => void;
  onDownload: () => Promise<void>;
  query: { isPending: boolean; isError: boolean; error: unknown; isPlaceholderData: boolean };
  children: ReactNode;
}) {
  const [downloading, setDownloading] = useState(false);
  const rangeId = useId();
  const download = async () => {
    setDownloading(true);
    try {
      await onDownload();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6">
      <div className="flex flex-col gap-3">
        <Link to={back.to} className="inline-flex w-fit items-center gap-1 text-sm font-medium text-link hover:underline">
          <ArrowLeft className="size-4" aria-hidden /> {back.label}
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h1 className="min-w-0 break-words text-2xl font-bold">{title}</h1>
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={rangeId} className="text-xs font-medium text-fg-muted">
                {t('analytics.range')}
              </label>
              <select
                id={rangeId}
                value={range}
                onChange={(e) => onRange(e.target.value as AnalyticsRange)}
                className="h-10 rounded-lg border border-line-strong bg-surface px-3 text-sm"
              >
                {analyticsRanges.map((r) => (
                  <option key={r} value={r}>
                    {t(rangeLabels[r])}
                  </option>
                ))}
              </select>
            </div>
            <Button variant="secondary" onClick={() => void download()} loading={downloading}>
              <Download className="size-4" aria-hidden /> {t('analytics.downloadCsv')}
            </Button>
          </div>
        </div>
      </div>
      {query.isPending ? (
        <Spinner label={t('analytics.loading')} />
      ) : query.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(query.error)}
        </p>
      ) : (
        <div className={clsx('flex flex-col gap-6 transition-opacity', query.isPlaceholderData && 'opacity-60')} aria-busy={query.isPlaceholderData}>
          {children}
        </div>
      )}
    </div>
  );
}

/** The range's figures; the cards first, then the charts, or the empty state when nobody watched. */
export function AnalyticsBody({ answer, children }: { answer: Pick<ChannelAnalytics, 'totals' | 'days' | 'sources'>; children?: ReactNode }) {
  return (
    <>
      <SummaryCards totals={answer.totals} />
      {answer.totals.views === 0 ? (
        <EmptyState kind="video" title={t('analytics.noViews')} text={t('analytics.noViewsText')} />
      ) : (
        <>
          <DailyChart days={answer.days} />
          {/* minmax(0, 1fr): a wide table or a long word wraps inside its card instead of widening the page. */}
          <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
            <SourcesList sources={answer.sources} />
            {children}
          </div>
        </>
      )}
    </>
  );
}

function SummaryCards({ totals }: { totals: AnalyticsTotals }) {
  const cards: [string, string][] = [
    [t('analytics.views'), formatCount(totals.views)],
    [t('analytics.watchTime'), formatWatchTime(totals.watchTimeSeconds)],
    [t('analytics.avgDuration'), formatDuration(totals.averageViewDurationSeconds)],
    [t('analytics.subscribers'), `+${formatCount(totals.subscribersGained)} / -${formatCount(totals.subscribersLost)}`],
    [t('analytics.likes'), formatCount(totals.likes)],
    [t('analytics.comments'), formatCount(totals.comments)],
  ];
  return (
    <ul aria-label={t('analytics.summary')} className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
      {cards.map(([label, value]) => (
        <li key={label} className="rounded-xl border border-line p-4">
          <p className="text-sm text-fg-muted">{label}</p>
          <p className="text-2xl font-bold tabular-nums">{value}</p>
        </li>
      ))}
    </ul>
  );
}

type Metric = 'views' | 'watchTime' | 'subscribers' | 'likes' | 'comments';
const metrics: { key: Metric; label: MessageKey; value: (d: AnalyticsDay) => number; format?: (n: number) => string }[] = [
  { key: 'views', label: 'analytics.views', value: (d) => d.views },
  // Minutes per day: a day's seconds would make the axis unreadable.
  { key: 'watchTime', label: 'analytics.watchMinutes', value: (d) => Math.round(d.watchTimeSeconds / 6) / 10 },
  { key: 'subscribers', label: 'analytics.subscribersNet', value: (d) => d.subscribersGained - d.subscribersLost },
  { key: 'likes', label: 'analytics.likes', value: (d) => d.likes },
  { key: 'comments', label: 'analytics.comments', value: (d) => d.comments },
];

function DailyChart({ days }: { days: AnalyticsDay[] }) {
  const [metric, setMetric] = useState<Metric>('views');
  const name = useId();
  const chosen = metrics.find((m) => m.key === metric)!;
  const ticks = formatAxisDays(days.map((d) => d.date));
  const points = days.map((d, i) => ({ label: formatDay(d.date), tick: ticks[i], value: chosen.value(d) }));
  return (
    <section aria-labelledby={`${name}-title`} className="rounded-xl border border-line p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${name}-title`} className="font-semibold">
          {t('analytics.perDay')}
        </h2>
        <fieldset className="flex flex-wrap gap-1">
          <legend className="sr-only">{t('analytics.metric')}</legend>
          {metrics.map((m) => (
            <label
              key={m.key}
              className={clsx(
                'cursor-pointer rounded-full px-3 py-1 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-focus',
                m.key === metric ? 'bg-inverse text-on-inverse' : 'bg-surface-subtle text-fg hover:bg-surface-strong',
              )}
            >
              <input type="radio" name={name} value={m.key} checked={m.key === metric} onChange={() => setMetric(m.key)} className="sr-only" />
              {t(m.label)}
            </label>
          ))}
        </fieldset>
      </div>
      <LineAreaChart points={points} caption={t('analytics.metricPerDay', { metric: t(chosen.label) })} columns={[t('analytics.day'), t(chosen.label)]} />
    </section>
  );
}

const sourceLabels: Record<TrafficSource, MessageKey> = {
  home: 'analytics.srcHome',
  search: 'shell.search',
  subscriptions: 'nav.subscriptions',
  channel: 'analytics.srcChannel',
  playlist: 'nav.playlists',
  embed: 'analytics.srcEmbed',
  external: 'analytics.srcExternal',
  direct: 'analytics.srcDirect',
};

/** Where the views came from, as a bar list: the text says it all, the bars only repeat it. */
function SourcesList({ sources }: { sources: ChannelAnalytics['sources'] }) {
  const total = sources.reduce((sum, s) => sum + s.views, 0);
  const sorted = [...sources].filter((s) => s.views > 0).sort((a, b) => b.views - a.views);
  return (
    <section aria-labelledby="traffic-sources" className="rounded-xl border border-line p-4">
      <h2 id="traffic-sources" className="mb-3 font-semibold">
        {t('analytics.traffic')}
      </h2>
      <ul aria-labelledby="traffic-sources" className="flex flex-col gap-3">
        {sorted.map((s) => {
          const share = total ? s.views / total : 0;
          return (
            <li key={s.source}>
              <div className="flex flex-wrap justify-between gap-x-2 text-sm">
                <span>{t(sourceLabels[s.source])}</span>
                <span className="tabular-nums text-fg-muted">
                  {t('analytics.sourceViews', { n: formatCount(s.views), count: s.views, share: formatPercent(share) })}
                </span>
              </div>
              <div aria-hidden className="mt-1 h-2 overflow-hidden rounded-full bg-surface-subtle">
                <div className="h-full rounded-full bg-accent" style={{ width: `${Math.round(share * 100)}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
