import type { AnalyticsRange } from '@glimpse/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { paths } from '@/config/paths.ts';
import { formatDuration, formatPercent } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { browserTimeZone, downloadAnalyticsCsv, useVideoAnalytics } from '../api/analytics-api.ts';
import { AnalyticsBody, AnalyticsFrame } from '../components/analytics/analytics-view.tsx';
import { LineAreaChart } from '../components/analytics/line-chart.tsx';
import { t } from '@/lib/i18n/i18n.ts';

// The curve is in whole percent (0-100, the axis's top fixed at 100).
const percent = (n: number) => formatPercent(n / 100);

/** One video's analytics: as the channel's, with the audience retention curve instead of top videos. */
export default function VideoAnalyticsRoute() {
  const videoId = useParams().videoId ?? '';
  const user = useStoredUser();
  const [range, setRange] = useState<AnalyticsRange>('28d');
  const [tz] = useState(browserTimeZone);
  const query = useVideoAnalytics(videoId, { range, tz });
  const title = query.data?.title;
  const heading = title ? t('analytics.videoTitleOf', { title }) : t('analytics.videoTitle');
  useDocumentTitle(heading);
  return (
    <AnalyticsFrame
      title={heading}
      back={{ to: paths.user.analytics.getHref(user?.userName ?? ''), label: t('analytics.channelTitle') }}
      range={range}
      onRange={setRange}
      onDownload={() => downloadAnalyticsCsv(videoId, { range, tz })}
      query={query}
    >
      {query.data && (
        <AnalyticsBody answer={query.data}>
          <section aria-labelledby="retention" className="rounded-xl border border-line p-4">
            <h2 id="retention" className="font-semibold">
              {t('analytics.retention')}
            </h2>
            <p className="mb-3 text-xs text-fg-muted">{t('analytics.retentionHint')}</p>
            <LineAreaChart
              points={query.data.retention.map((p) => ({ label: formatDuration(p.positionSeconds), value: Math.round(p.share * 100) }))}
              caption={t('analytics.retention')}
              columns={[t('analytics.position'), t('analytics.shareOfViews')]}
              format={percent}
              high={100}
            />
          </section>
        </AnalyticsBody>
      )}
    </AnalyticsFrame>
  );
}
