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
            <table className="w-full text-sm">
              <caption className="sr-only">{t('analytics.topVideos')}</caption>
              <thead>
                {/* On a phone: tighter cells, figure columns only as wide as their words, the title gets the rest
                    (and breaks anywhere); the average view (watch time / views) is left to wider screens. */}
                <tr className="text-left text-xs uppercase text-fg-muted sm:tracking-wide">
                  <th className="py-2 pr-2 font-semibold sm:pr-3">{t('dashboard.colVideo')}</th>
                  <th className="w-px px-2 py-2 text-right font-semibold sm:px-3">{t('analytics.views')}</th>
                  <th className="w-px py-2 pl-2 text-right font-semibold sm:px-3">{t('analytics.watchTime')}</th>
                  <th className="hidden w-px py-2 pl-3 text-right font-semibold sm:table-cell">{t('analytics.averageView')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {query.data.topVideos.map((v) => (
                  <tr key={v.videoId}>
                    <td className="py-2 pr-2 sm:pr-3">
                      <Link to={paths.user.videoAnalytics.getHref(userName, v.videoId)} className="font-medium text-link [overflow-wrap:anywhere] hover:underline">
                        {v.title}
                      </Link>
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums sm:px-3">{formatCount(v.views)}</td>
                    <td className="py-2 pl-2 text-right tabular-nums sm:px-3">{formatWatchTime(v.watchTimeSeconds)}</td>
                    <td className="hidden py-2 pl-3 text-right tabular-nums sm:table-cell">{formatDuration(v.averageViewDurationSeconds)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </AnalyticsBody>
      )}
    </AnalyticsFrame>
  );
}
