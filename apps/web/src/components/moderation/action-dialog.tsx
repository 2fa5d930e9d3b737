import { MODERATION_REASON_MAX } from '@glimpse/contract';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextArea } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { DialogFooter } from './dialog-footer.tsx';
import { useQueueAction, type QueueAction } from './moderation-calls.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** What a dialog asks before an action: a reason (required or not) and, for a suspension, an end date. */
export interface Ask {
  title: string;
  confirm: string;
  reasonRequired: boolean;
  withDate?: boolean;
  build: (reason: string, until: string | null) => QueueAction;
}

export function ActionDialog({ ask, onClose }: { ask: Ask | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | null>(null);
  const action = useQueueAction();
  const dateId = useId();
  const close = () => {
    setReason('');
    setUntil('');
    setError(null);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ask) return;
    if (ask.reasonRequired && !reason.trim()) return setError(t('mod.giveReason'));
    // The end of the chosen day, in the moderator's time zone.
    const end = until ? new Date(`${until}T23:59:59`).toISOString() : null;
    action.mutate(ask.build(reason.trim(), end), {
      onSuccess: () => {
        toast.success(`${ask.confirm}: done`);
        close();
      },
      onError: (err) => setError(errorMessage(err)),
    });
  };
  return (
    <Dialog open={ask !== null} onClose={close} title={ask?.title ?? ''}>
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <TextArea
          label={ask?.reasonRequired ? t('mod.reason') : t('mod.reasonOptional')}
          maxLength={MODERATION_REASON_MAX}
          value={reason}
          onChange={(e) => (setReason(e.target.value), setError(null))}
        />
        {ask?.withDate && (
          <div className="flex flex-col gap-1">
            <label htmlFor={dateId} className="text-sm font-medium text-fg-muted">
              Until (optional; empty: until lifted)
            </label>
            <input id={dateId} type="date" value={until} onChange={(e) => setUntil(e.target.value)} className="h-10 rounded-lg border border-line-strong px-3 text-sm" />
          </div>
        )}
        <DialogFooter error={error} onCancel={close} submit={ask?.confirm ?? ''} busy={action.isPending} danger />
      </form>
    </Dialog>
  );
}
