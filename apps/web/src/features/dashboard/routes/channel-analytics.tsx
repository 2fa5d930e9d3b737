import type { AnalyticsRange } from '@glimpse/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatCount, formatDuration, formatWatchTime } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { browserTimeZone, downloadAnalyticsCsv, useChannelAnalytics } from '../api/analytics-api.ts';
import { AnalyticsBody, AnalyticsFrame } from '../components/analytics/analytics-view.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** The channel's analytics (ARCHITECTURE §11): the range's figures, daily chart, sources and top videos. The guard is in user-layout. */
export default function ChannelAnalyticsRoute() {
  useDocumentTitle(t('analytics.channelTitle'));
  const user = useStoredUser();
  const [range, setRange] = useState<AnalyticsRange>('28d');
  const [tz] = useState(browserTimeZone);
  const query = useChannelAnalytics({ range, tz });
  const userName = user?.userName ?? '';
  return (
    <AnalyticsFrame
      title={t('analytics.channelTitle')}
      back={{ to: paths.user.dashboard.getHref(userName), label: t('dashboard.title') }}
      range={range}
      onRange={setRange}
      onDownload={() => downloadAnalyticsCsv(null, { range, tz })}
      query={query}
    >
      {query.data && (
        <AnalyticsBody answer={query.data}>
          <section aria-labelledby="top-videos" className="rounded-xl border border-line p-4">
            <h2 id="top-videos" className="mb-3 font-semibold">
              {t('analytics.topVideos')}
            </h2>
            <div className="relative overflow-x-auto">
              <table className="w-full min-w-[420px] text-sm">
                <caption className="sr-only">{t('analytics.topVideos')}</caption>
                <thead>
                  <tr className="text-left text-xs uppercase tracking-wide text-fg-muted">
                    <th className="py-2 pr-3 font-semibold">{t('dashboard.colVideo')}</th>
                    <th className="px-3 py-2 text-right font-semibold">{t('analytics.views')}</th>
                    <th className="px-3 py-2 text-right font-semibold">{t('analytics.watchTime')}</th>
                    <th className="py-2 pl-3 text-right font-semibold">{t('analytics.averageView')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line">
                  {query.data.topVideos.map((v) => (
                    <tr key={v.videoId}>
                      <td className="py-2 pr-3">
                        <Link to={paths.user.videoAnalytics.getHref(userName, v.videoId)} className="line-clamp-2 font-medium text-link hover:underline">
                          {v.title}
                        </Link>
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatCount(v.views)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{formatWatchTime(v.watchTimeSeconds)}</td>
                      <td className="py-2 pl-3 text-right tabular-nums">{formatDuration(v.averageViewDurationSeconds)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </AnalyticsBody>
      )}
    </AnalyticsFrame>
  );
}
