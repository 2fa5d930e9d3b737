import { formatAxisDays, formatCount, formatDay, localDay, plural } from '@/lib/format.ts';
import { useElementWidth } from '@/lib/use-element-width.ts';
import type { VideoSummary } from '@/components/media/types.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { AxisLabels } from './axis-labels.tsx';

/** Tailwind's gap-1 between two bars (px). */
const BAR_GAP = 4;

/** Views summed per local upload day (yyyy-MM-dd, in every language: it sorts), oldest first. */
export function viewsByUploadDay(videos: Pick<VideoSummary, 'createdAt' | 'views'>[]): { day: string; views: number }[] {
  const byDay = new Map<string, number>();
  for (const v of videos) {
    const day = localDay(v.createdAt);
    byDay.set(day, (byDay.get(day) ?? 0) + v.views);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, views]) => ({ day, views }));
}

/**
 * The channel's views over time as a small bar chart. The API keeps no per-day view
 * history, so each bar is the views of the videos uploaded that day. Plain boxes rather
 * than a scaled SVG: the height and the text size stay the same at every screen width.
 */
export function ViewsChart({ videos }: { videos: Pick<VideoSummary, 'createdAt' | 'views'>[] }) {
  const [bars, width] = useElementWidth<HTMLDivElement>();
  const days = viewsByUploadDay(videos);
  if (days.length === 0) return null;
  const most = Math.max(...days.map((d) => d.views));
  const max = Math.max(1, most);
  // The bars share the row: each label sits under the middle of its bar.
  const barWidth = (width - BAR_GAP * (days.length - 1)) / days.length;
  const centres = days.map((_, i) => i * (barWidth + BAR_GAP) + barWidth / 2);
  const dayViews = (d: { day: string; views: number }) => t('chart.dayViews', { day: formatDay(d.day), views: plural(d.views, 'count.views') });
  const summary = days.map(dayViews).join(', ');
  return (
    <figure className="rounded-xl border border-line p-4">
      <figcaption className="mb-1 font-semibold">{t('chart.viewsByDay')}</figcaption>
      <p className="mb-3 text-xs text-fg-muted">{t('chart.viewsByDayHint')}</p>
      <div role="img" aria-label={t('chart.viewsByDayLabel', { summary })} className="flex gap-2 text-xs text-fg-muted">
        <div aria-hidden className="flex h-36 flex-col justify-between text-right tabular-nums">
          <span>{formatCount(max)}</span>
          <span>0</span>
        </div>
        <div aria-hidden className="min-w-0 flex-1">
          <div ref={bars} className="relative flex h-36 items-end gap-1 border-b border-line-strong">
            {most === 0 && <p className="absolute inset-0 flex items-center justify-center text-sm">{t('chart.noViews')}</p>}
            {days.map((d) => (
              <div key={d.day} className="flex h-full min-w-0 flex-1 items-end justify-center" title={dayViews(d)}>
                <div className="w-full max-w-10 min-h-px rounded-t bg-accent" style={{ height: `${(d.views / max) * 100}%` }} />
              </div>
            ))}
          </div>
          <div className="mt-1">
            <AxisLabels labels={formatAxisDays(days.map((d) => d.day))} centres={centres} width={width} />
          </div>
        </div>
      </div>
    </figure>
  );
}
