import type { ModerationAction } from '@glimpse/contract';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { useModerationLog } from '../api/moderation-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

// The contract's English labels stay for the server; the log shows the catalogue's.
const actionLabels: Record<ModerationAction, MessageKey> = {
  dismiss: 'moderation.actDismiss',
  take_down: 'moderation.actTakeDown',
  restore: 'moderation.actRestore',
  delete: 'moderation.actDelete',
  suspend: 'moderation.actSuspend',
  unsuspend: 'moderation.actUnsuspend',
  keep_removed: 'moderation.actKeepRemoved',
  'registration.approve': 'moderation.actApproveRegistration',
  'registration.reject': 'moderation.actRejectRegistration',
};
const actionLabel = (a: string) => {
  const key = actionLabels[a as ModerationAction] as MessageKey | undefined;
  return key ? t(key) : a;
};

/** Every staff action: who, on what, what, why, when (staff only). */
export default function AdminLog() {
  useDocumentTitle(t('admin.tabLog'));
  const q = useModerationLog();
  const entries = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (q.isPending) return <Spinner label={t('moderation.loadingLog')} />;
  if (q.isError)
    return (
      <p role="alert" className="text-sm text-danger">
        {errorMessage(q.error)}
      </p>
    );
  if (entries.length === 0) return <EmptyState kind="moderation" title={t('moderation.noActions')} text={t('moderation.noActionsText')} />;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t('admin.tabLog')}</caption>
        <thead className="text-xs uppercase text-fg-muted">
          <tr>
            <th className="px-3 py-2">{t('moderation.when')}</th>
            <th className="px-3 py-2">{t('moderation.moderator')}</th>
            <th className="px-3 py-2">{t('moderation.action')}</th>
            <th className="px-3 py-2">{t('moderation.target')}</th>
            <th className="px-3 py-2">{t('moderation.reason')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {entries.map((e) => (
            <tr key={e._id}>
              <td className="whitespace-nowrap px-3 py-2">{formatDate(e.createdAt)}</td>
              <td className="px-3 py-2">{e.actor ? `@${e.actor.userName}` : t('moderation.deletedAccount')}</td>
              <td className="px-3 py-2">{actionLabel(e.action)}</td>
              <td className="px-3 py-2">
                <span className="capitalize">{t('moderation.kindName', { kind: e.targetKind })}</span> <span className="font-mono text-xs text-fg-muted">{e.targetId ? e.targetId.slice(-8) : t('moderation.deletedAccountId')}</span>
              </td>
              <td className="px-3 py-2">{e.reason || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
