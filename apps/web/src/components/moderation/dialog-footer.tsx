import { Button } from '@/components/ui/button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** The end of a moderation dialog's form: its error, Cancel and the submit button. */
export function DialogFooter({ error, onCancel, submit, busy, danger }: { error: string | null; onCancel: () => void; submit: string; busy: boolean; danger?: boolean }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy}>
          {submit}
        </Button>
      </div>
    </>
  );
}
