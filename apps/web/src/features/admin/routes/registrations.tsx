import { REJECTION_REASON_MAX, rejectRegistrationBody, type PendingRegistration } from '@glimpse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextArea } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { registrationsQueryOptions, useDecideRegistration } from '../api/registrations-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Asks the reason of a rejection (mailed to the person), checked with the contract's schema. */
function RejectDialog({ registration, onClose }: { registration: PendingRegistration; onClose: () => void }) {
  const decide = useDecideRegistration();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = rejectRegistrationBody.safeParse({ reason });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]!.message);
      return;
    }
    decide.mutate(
      { userId: registration._id, decision: 'reject', reason: parsed.data.reason },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          onClose();
        },
        onError: (err) => toast.error(errorMessage(err)),
      },
    );
  };

  return (
    <Dialog open onClose={onClose} title={t('admin.rejectName', { name: registration.fullName })}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <TextArea
          label={t('admin.rejectReason', { email: registration.email })}
          help={t('admin.rejectHelp')}
          error={problem ?? undefined}
          rows={4}
          maxLength={REJECTION_REASON_MAX}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setProblem(null);
          }}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="danger" loading={decide.isPending}>
            {t('admin.rejectRegistration')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function RegistrationItem({ registration: r, onReject }: { registration: PendingRegistration; onReject: () => void }) {
  const decide = useDecideRegistration();
  const approve = () =>
    decide.mutate({ userId: r._id, decision: 'approve' }, { onSuccess: (res) => toast.success(res.message), onError: (err) => toast.error(errorMessage(err)) });
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1">
        <p>
          <span className="font-medium">{r.fullName}</span> <span className="text-sm text-fg-muted">@{r.userName}</span>
        </p>
        <p className="truncate text-sm text-fg-muted">
          {r.email} {r.emailVerified ? t('admin.verified') : t('admin.notVerifiedYet')} · {t('admin.registeredOn', { date: formatDate(r.createdAt) })}
        </p>
        {r.reason && <p className="mt-1 whitespace-pre-wrap rounded-lg bg-surface-muted p-2 text-sm text-fg">{r.reason}</p>}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button size="sm" aria-label={t('admin.approveName', { name: r.fullName })} loading={decide.isPending} onClick={approve}>
          {t('admin.approve')}
        </Button>
        <Button size="sm" variant="secondary" aria-label={t('admin.rejectNameLabel', { name: r.fullName })} onClick={onReject}>
          {t('admin.reject')}
        </Button>
      </div>
    </li>
  );
}

/** Registration in approval mode: staff approve or reject the waiting accounts, oldest first. */
export default function AdminRegistrations() {
  useDocumentTitle(t('admin.tabRegistrations'));
  const list = useInfiniteQuery(registrationsQueryOptions);
  const [rejecting, setRejecting] = useState<PendingRegistration | null>(null);
  const items = list.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <section aria-label={t('admin.tabRegistrations')} className="flex flex-col gap-4">
      {list.isPending ? (
        <Spinner label={t('admin.loadingRegistrations')} />
      ) : list.isError ? (
        <EmptyState kind="moderation" title={t('admin.registrationsFailed')} text={errorMessage(list.error)} />
      ) : items.length === 0 ? (
        <EmptyState kind="moderation" title={t('admin.noRegistrations')} text={t('admin.noRegistrationsText')} />
      ) : (
        <ul aria-label={t('admin.registrationsWaiting')} className="divide-y divide-line rounded-xl border border-line">
          {items.map((r) => (
            <RegistrationItem key={r._id} registration={r} onReject={() => setRejecting(r)} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <Button variant="secondary" className="self-center" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('common.showMore')}
        </Button>
      )}
      {rejecting && <RejectDialog registration={rejecting} onClose={() => setRejecting(null)} />}
    </section>
  );
}
