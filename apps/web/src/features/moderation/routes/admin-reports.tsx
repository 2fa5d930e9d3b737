import {
  queueStates,
  reportTargetKinds,
  type QueueItem,
  type QueueState,
  type ReportTargetKind,
} from '@glimpse/contract';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate, formatRelative, plural } from '@/lib/format.ts';
import { useQueue } from '../api/moderation-api.ts';
import { ActionDialog, type Ask } from '@/components/moderation/action-dialog.tsx';
import { TargetLink } from '../components/target-link.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { reasonLabels } from '@/components/moderation/report-dialog.tsx';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const kindLabels: Record<ReportTargetKind, MessageKey> = {
  video: 'moderation.kindsVideos',
  comment: 'moderation.kindsComments',
  tweet: 'moderation.kindsTweets',
  channel: 'moderation.kindsChannels',
  federatedComment: 'moderation.kindsFederatedComments',
};
// The contract's English labels stay for the server; the queue shows the catalogue's.
const stateLabels: Record<QueueState, MessageKey> = {
  open: 'moderation.queueOpen',
  appealed: 'moderation.queueAppealed',
  dismissed: 'moderation.queueDismissed',
  actioned: 'moderation.queueActioned',
};

/** The actions a queue item offers, by its kind and state. */
function actionsFor(item: QueueItem, state: QueueState): Ask[] {
  const { targetKind: kind, targetId: id, owner } = item;
  const asks: Ask[] = [];
  const appealWaiting = item.takedown?.appealedAt && !item.takedown.appealClosed;
  if (state === 'open' || appealWaiting) {
    asks.push({
      title: appealWaiting ? t('moderation.keepRemovedTitle') : t('moderation.dismissTitle'),
      confirm: appealWaiting ? t('moderation.keepRemoved') : t('moderation.dismiss'),
      reasonRequired: false,
      build: (reason) => ({ type: 'dismiss', kind, id, reason }),
    });
  }
  // A channel is acted on through its account; a comment across servers is dismissed, or its author (when ours) suspended.
  const content = kind !== 'channel' && kind !== 'federatedComment';
  if (content && item.itemState === 'visible') {
    asks.push({ title: t('moderation.takeDownTitle'), confirm: t('moderation.takeDown'), reasonRequired: true, build: (reason) => ({ type: 'take-down', kind, id, reason }) });
  }
  if (content && item.itemState === 'taken_down') {
    asks.push({ title: t('moderation.restoreTitle'), confirm: t('moderation.restore'), reasonRequired: false, build: (reason) => ({ type: 'restore', kind, id, reason }) });
  }
  if (content && item.itemState !== 'deleted') {
    asks.push({ title: t('moderation.deleteTitle'), confirm: t('common.delete'), reasonRequired: false, build: (reason) => ({ type: 'delete', kind, id, reason }) });
  }
  if (owner && owner.state === 'suspended') {
    asks.push({
      title: t('admin.liftTitle', { user: owner.userName }),
      confirm: t('admin.lift'), reasonRequired: false, build: (reason) => ({ type: 'unsuspend', userId: owner._id, reason }) });
  } else if (owner && owner.role !== 'admin') {
    asks.push({
      title: t('admin.suspendTitle', { user: owner.userName }),
      confirm: t('admin.suspend'),
      reasonRequired: true,
      withDate: true,
      build: (reason, until) => ({ type: 'suspend', userId: owner._id, reason, until }),
    });
  }
  return asks;
}

const itemStateLabels = { visible: 'moderation.itemVisible', taken_down: 'moderation.itemRemoved', deleted: 'moderation.itemDeleted' } as const;

function QueueCard({ item, state, onAsk }: { item: QueueItem; state: QueueState; onAsk: (a: Ask) => void }) {
  return (
    <article aria-label={t('moderation.reportedItem', { kind: t('moderation.kindName', { kind: item.targetKind }), label: item.target.label ?? t('moderation.deleted') })} className="flex flex-col gap-3 rounded-xl border border-line p-4">
      <div className="flex flex-col gap-3 sm:flex-row">
        {item.thumbnail && <img src={item.thumbnail.url} alt="" className="aspect-video w-full shrink-0 rounded-lg object-cover sm:w-40" />}
        <div className="min-w-0 flex-1 text-sm">
          <TargetLink kind={item.targetKind} target={item.target} linked={item.itemState === 'visible' && item.owner?.state !== 'suspended'} />
          <p className="text-fg-muted">
            {item.owner && (
              <>
                {t('moderation.byUser', { user: item.owner.userName })}
                {item.owner.role !== 'user' && ` (${t('admin.roleName', { role: item.owner.role })})`}
                {item.owner.state === 'suspended' &&
                  (item.owner.suspendedUntil ? t('moderation.suspendedUntil', { date: formatDate(item.owner.suspendedUntil) }) : t('moderation.suspended'))}
                {' · '}
              </>
            )}
            {t(itemStateLabels[item.itemState])} · {plural(item.reportCount, 'count.reports')}
          </p>
          {item.text && item.targetKind !== 'channel' && <p className="mt-1 line-clamp-3 whitespace-pre-wrap break-words">{item.text}</p>}
          {item.takedown && (
            <div className="mt-2 rounded-lg bg-warning-subtle p-2 text-warning">
              <p>{t('mod.removedNotice', { reason: item.takedown.reason })}</p>
              {item.takedown.appealText && <p className="mt-1">{t('moderation.appealQuote', { text: item.takedown.appealText })}</p>}
            </div>
          )}
        </div>
      </div>
      {item.reports.length > 0 && (
        <ul aria-label={t('moderation.reports')} className="flex flex-col gap-1 border-t border-line pt-2 text-sm">
          {item.reports.map((r) => (
            <li key={r._id}>
              <span className="font-medium">{t(reasonLabels[r.reason])}</span>
              <span className="text-fg-muted">
                {' '}
                · @{r.reporter.userName} · {formatRelative(r.createdAt)}
              </span>
              {r.text && <span className="block break-words text-fg-muted">“{r.text}”</span>}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {actionsFor(item, state).map((a) => (
          <Button key={a.confirm} size="sm" variant={a.confirm === t('moderation.dismiss') || a.confirm === t('moderation.restore') ? 'secondary' : 'dark'} onClick={() => onAsk(a)}>
            {a.confirm}
          </Button>
        ))}
      </div>
    </article>
  );
}

/** The moderation queue: reported items grouped by target, filtered by state and kind (staff). */
export default function AdminReports() {
  useDocumentTitle(t('admin.tabReports'));
  const [state, setState] = useState<QueueState>('open');
  const [kind, setKind] = useState<ReportTargetKind | ''>('');
  const [ask, setAsk] = useState<Ask | null>(null);
  const q = useQueue(state, kind);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const stateId = useId();
  const kindId = useId();
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={stateId} className="text-sm font-medium text-fg-muted">
            {t('moderation.state')}
          </label>
          <select id={stateId} value={state} onChange={(e) => setState(e.target.value as QueueState)} className="h-10 rounded-lg border border-line-strong bg-surface px-3 text-sm">
            {queueStates.map((s) => (
              <option key={s} value={s}>
                {t(stateLabels[s])}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={kindId} className="text-sm font-medium text-fg-muted">
            {t('moderation.kind')}
          </label>
          <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value as ReportTargetKind | '')} className="h-10 rounded-lg border border-line-strong bg-surface px-3 text-sm">
            <option value="">{t('moderation.everything')}</option>
            {reportTargetKinds.map((k) => (
              <option key={k} value={k}>
                {t(kindLabels[k])}
              </option>
            ))}
          </select>
        </div>
      </div>
      {q.isPending ? (
        <Spinner label={t('moderation.loadingReports')} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(q.error)}
        </p>
      ) : items.length === 0 ? (
        <EmptyState kind="moderation" title={t('moderation.nothingHere')} text={state === 'open' ? t('moderation.noOpen') : t('moderation.noneInState')} />
      ) : (
        <ul aria-label={t('moderation.reportedItems')} className="flex flex-col gap-3">
          {items.map((item) => (
            <li key={`${item.targetKind}:${item.targetId}`}>
              <QueueCard item={item} state={state} onAsk={setAsk} />
            </li>
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
      <ActionDialog ask={ask} onClose={() => setAsk(null)} />
    </div>
  );
}
