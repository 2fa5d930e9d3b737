import { REPORT_TEXT_MAX, reportReasons, type ReportReason, type UserReportTargetKind } from '@glimpse/contract/moderation-terms';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ActionMenu } from '@/components/ui/action-menu.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextArea } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useReport } from './moderation-calls.ts';
import { DialogFooter } from './dialog-footer.tsx';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const titles: Record<UserReportTargetKind, MessageKey> = { video: 'mod.reportVideo', comment: 'mod.reportComment', tweet: 'mod.reportTweet', channel: 'mod.reportChannel' };
// The contract's English labels stay for the server and moderators' logs; the form shows the catalogue's.
export const reasonLabels: Record<ReportReason, MessageKey> = {
  spam: 'reason.spam',
  harassment: 'reason.harassment',
  hateful: 'reason.hateful',
  sexual: 'reason.sexual',
  violent: 'reason.violent',
  copyright: 'reason.copyright',
  other: 'reason.other',
};

/** The report form: a reason (radio buttons) and an optional text. `remote`: the item is on another server, which gets the report. */
export function ReportDialog({ kind, id, open, onClose, remote = false }: { kind: UserReportTargetKind; id: string; open: boolean; onClose: () => void; remote?: boolean }) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const report = useReport(remote);

  const close = () => {
    setReason(null);
    setText('');
    setError(null);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) return setError(t('mod.chooseReason'));
    report.mutate(
      { targetKind: kind, targetId: id, reason, text: text.trim() || undefined },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          close();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Dialog open={open} onClose={close} title={t(titles[kind])}>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {remote && <p className="text-sm text-fg-muted">{t('mod.remoteReport')}</p>}
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-fg-muted">{t('mod.why')}</legend>
          {reportReasons.map((r) => (
            <label key={r} className="flex items-center gap-2 rounded-md px-1 py-1 text-sm hover:bg-surface-muted">
              <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => (setReason(r), setError(null))} />
              {t(reasonLabels[r])}
            </label>
          ))}
        </fieldset>
        <TextArea label={t('mod.details')} value={text} maxLength={REPORT_TEXT_MAX} onChange={(e) => setText(e.target.value)} />
        <DialogFooter error={error} onCancel={close} submit={t('comments.report')} busy={report.isPending} />
      </form>
    </Dialog>
  );
}

/** A ⋮ menu whose one entry reports the item (for logged-in viewers who do not own it). */
export function ReportMenu({ kind, id, label, remote = false }: { kind: UserReportTargetKind; id: string; label: string; remote?: boolean }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  return (
    <>
      <ActionMenu label={label} open={menuOpen} onToggle={() => setMenuOpen((o) => !o)} onClose={() => setMenuOpen(false)} onReport={() => setDialogOpen(true)} />
      <ReportDialog kind={kind} id={id} open={dialogOpen} onClose={() => setDialogOpen(false)} remote={remote} />
    </>
  );
}
