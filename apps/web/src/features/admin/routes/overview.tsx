import { useQuery } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatCount, formatRelative, formatSize } from '@/lib/format.ts';
import { overviewQueryOptions, useRetryTranscode } from '../api/admin-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

function Figure({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="flex flex-col rounded-lg bg-surface-muted px-3 py-2">
      <dt className="text-xs text-fg-muted">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{typeof value === 'number' ? formatCount(value) : value}</dd>
    </div>
  );
}

function Figures({ figures }: { figures: [label: string, value: number | string][] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {figures.map(([label, value]) => (
        <Figure key={label} label={label} value={value} />
      ))}
    </dl>
  );
}

function Card({ title, figures }: { title: string; figures: [string, number | string][] }) {
  return (
    <section aria-labelledby={`overview-${title}`} className="rounded-xl border border-line p-4">
      <h2 id={`overview-${title}`} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      <Figures figures={figures} />
    </section>
  );
}

/** The instance at a glance (issue #12 item 9): accounts, videos, the transcode queue and its failures. */
export default function AdminOverview() {
  useDocumentTitle(t('nav.administration'));
  const overview = useQuery(overviewQueryOptions);
  const retry = useRetryTranscode();
  if (overview.isPending) return <Spinner label={t('admin.loadingOverview')} />;
  if (overview.isError) return <EmptyState kind="moderation" title={t('admin.overviewFailed')} text={errorMessage(overview.error)} />;
  const { users, videos, storage, moderation, transcodes } = overview.data;

  const onRetry = (videoId: string) =>
    retry.mutate(videoId, { onSuccess: (res) => toast.success(res.message), onError: (err) => toast.error(errorMessage(err)) });

  return (
    <div className="flex flex-col gap-4">
      <Card
        title={t('admin.users')}
        figures={[
          [t('admin.total'), users.total],
          [t('admin.newThisWeek'), users.newThisWeek],
          [t('admin.pendingApproval'), users.pendingApproval],
          [t('admin.suspended'), users.suspended],
        ]}
      />
      <Card
        title={t('admin.moderation')}
        figures={[
          [t('admin.reportedItems'), moderation.openReports],
          [t('admin.appeals'), moderation.appeals],
        ]}
      />
      <Card
        title={t('admin.videos')}
        figures={[
          [t('admin.total'), videos.total],
          [t('admin.ready'), videos.ready],
          [t('admin.processing'), videos.processing],
          [t('admin.failed'), videos.failed],
          [t('admin.storageUsed'), formatSize(storage.bytes)],
        ]}
      />
      <section aria-labelledby="overview-transcodes" className="rounded-xl border border-line p-4">
        <h2 id="overview-transcodes" className="mb-3 text-base font-semibold">
          {t('admin.transcodeQueue')}
        </h2>
        <div className="mb-3">
          <Figures
            figures={[
              [t('admin.queued'), transcodes.queued],
              [t('admin.running'), transcodes.running],
              [t('admin.failed'), videos.failed],
            ]}
          />
        </div>
        {transcodes.failed.length === 0 ? (
          <p className="text-sm text-fg-muted">{t('admin.noFailedTranscodes')}</p>
        ) : (
          <ul aria-label={t('admin.failedTranscodes')} className="divide-y divide-line">
            {transcodes.failed.map((f) => (
              <li key={f.videoId} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2">
                <div className="min-w-0 flex-1">
                  <Link to={paths.video.getHref(f.videoId)} className="block truncate font-medium hover:underline">
                    {f.title}
                  </Link>
                  <p className="text-xs text-fg-muted">
                    @{f.ownerUserName} · {t('admin.failedAgo', { time: formatRelative(f.failedAt) })}
                  </p>
                  <p className="text-sm text-danger">{f.reason ?? t('admin.noReason')}</p>
                </div>
                <Button
                  variant="secondary"
                  aria-label={t('admin.retryTitle', { title: f.title })}
                  loading={retry.isPending && retry.variables === f.videoId}
                  onClick={() => onRetry(f.videoId)}
                >
                  {t('admin.retry')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
