import type { LogEntry, ModerationAction } from '@glimpse/contract';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useModerationLog } from '../api/moderation-api.ts';
import { TargetLink } from '../components/target-link.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { getLocale, t, type MessageKey } from '@/lib/i18n/i18n.ts';

type RoleAction = Extract<ModerationAction, `role.${string}`>;

// The contract's English labels stay for the server; the log shows the catalogue's.
const actionLabels: Record<Exclude<ModerationAction, RoleAction>, MessageKey> = {
  dismiss: 'moderation.actDismiss',
  take_down: 'moderation.actTakeDown',
  restore: 'moderation.actRestore',
  delete: 'moderation.actDelete',
  suspend: 'moderation.actSuspend',
  unsuspend: 'moderation.actUnsuspend',
  keep_removed: 'moderation.actKeepRemoved',
  'registration.approve': 'moderation.actApproveRegistration',
  'registration.reject': 'moderation.actRejectRegistration',
  'account.delete': 'moderation.actDeleteAccount',
};
const actionLabel = (a: string) => {
  if (a.startsWith('role.')) return t('moderation.actRole', { role: t('admin.roleName', { role: a.slice('role.'.length) }) });
  const key = actionLabels[a as Exclude<ModerationAction, RoleAction>] as MessageKey | undefined;
  return key ? t(key) : a;
};

/** When, to the minute, in the active language (the layout re-mounts on a language switch). */
const when = (iso: string) => new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const actorOf = (e: LogEntry) => (e.actor ? `@${e.actor.userName}` : e.fromCommandLine ? t('moderation.commandLine') : t('moderation.deletedAccount'));

/** Every staff action: who, on what (named, linked while it exists), what, why, when (staff only). */
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
              <td className="whitespace-nowrap px-3 py-2">
                <time dateTime={e.createdAt}>{when(e.createdAt)}</time>
              </td>
              <td className="px-3 py-2">{actorOf(e)}</td>
              <td className="px-3 py-2">{actionLabel(e.action)}</td>
              <td className="px-3 py-2">
                {/* A link while the target exists; once gone, the name it had then (none once its account was deleted). */}
                <TargetLink kind={e.targetKind} target={e.target} linked={e.targetExists} />
                {!e.targetExists && e.target.label && <span className="text-fg-muted"> ({t('moderation.deleted')})</span>}
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
