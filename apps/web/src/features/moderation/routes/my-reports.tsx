import type { ReportState } from '@glimpse/contract';
import clsx from 'clsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useLoginGuard } from '@/lib/use-login-guard.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { formatRelative } from '@/lib/format.ts';
import { useMyReports } from '../api/moderation-api.ts';
import { TargetLink } from '../components/target-link.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { reasonLabels } from '@/components/moderation/report-dialog.tsx';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const stateLabels: Record<ReportState, MessageKey> = { open: 'moderation.reportOpen', dismissed: 'moderation.reportDismissed', actioned: 'moderation.reportActioned' };
const stateStyles = { open: 'bg-accent-muted text-link', dismissed: 'bg-surface-subtle text-fg-muted', actioned: 'bg-success-subtle text-success' } as const;

/** The caller's reports and what became of them (issue #12 item 3). */
export default function MyReports() {
  useDocumentTitle(t('moderation.myReports'));
  const q = useMyReports();
  useLoginGuard(q.error, t('moderation.loginToSee'));
  const reports = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{t('moderation.myReports')}</h1>
      {q.isPending || isApiError(q.error, 401) ? (
        <Spinner label={t('moderation.loadingMine')} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(q.error)}
        </p>
      ) : reports.length === 0 ? (
        <EmptyState kind="moderation" title={t('moderation.noReports')} text={t('moderation.noReportsText')} />
      ) : (
        <ul aria-label={t('moderation.myReports')} className="flex flex-col divide-y divide-line rounded-xl border border-line">
          {reports.map((r) => (
            <li key={r._id} className="flex flex-col gap-1 p-3 text-sm sm:flex-row sm:items-center sm:gap-3">
              <div className="min-w-0 flex-1">
                {/* An item acted on is most likely gone from public pages: named, not linked. */}
                <TargetLink kind={r.targetKind} target={r.target} linked={r.state !== 'actioned'} />
                <p className="text-fg-muted">
                  {t(reasonLabels[r.reason])} · {formatRelative(r.createdAt)}
                  {r.text && <span className="block truncate">“{r.text}”</span>}
                </p>
              </div>
              <span className={clsx('self-start rounded-full px-2 py-0.5 text-xs font-medium sm:self-center', stateStyles[r.state])}>{t(stateLabels[r.state])}</span>
            </li>
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
