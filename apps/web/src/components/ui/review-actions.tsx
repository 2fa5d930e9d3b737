import { Button } from './button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

export type ReviewAction = 'approve' | 'delete';

/** Approve (publish) or Delete for an item held for review; `what` names it for screen readers. */
export function ReviewActions({ what, busy, onReview }: { what: string; busy: boolean; onReview: (action: ReviewAction) => void }) {
  return (
    <div className="flex shrink-0 gap-2">
      <Button size="sm" aria-label={t('mod.approveWhat', { what })} disabled={busy} onClick={() => onReview('approve')}>
        {t('comments.approve')}
      </Button>
      <Button size="sm" variant="secondary" aria-label={t('mod.deleteWhat', { what })} disabled={busy} onClick={() => onReview('delete')}>
        {t('common.delete')}
      </Button>
    </div>
  );
}
