import { EllipsisVertical, Flag, Pencil, Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { IconButton } from './button.tsx';
import { useDismiss } from './use-dismiss.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * The ⋮ menu: the owner's Edit/Delete (spec §4), or Report for everyone else; only the
 * entries given are shown. The parent holds which menu is open so only one
 * is open at a time; clicking the same toggle again closes it. Escape and a click outside close it.
 */
export function ActionMenu({
  label,
  open,
  onToggle,
  onClose,
  onEdit,
  onDelete,
  onReport,
}: {
  /** Accessible name of the toggle, e.g. 'Tweet options'. */
  label: string;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
  onReport?: () => void;
}) {
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, onClose);

  const item = 'flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-surface-subtle';
  return (
    <div ref={root} className="relative">
      <IconButton label={label} aria-haspopup="menu" aria-expanded={open} onClick={onToggle} className="size-8">
        <EllipsisVertical className="size-4" aria-hidden />
      </IconButton>
      {open && (
        <div role="menu" aria-label={label} className="absolute right-0 z-20 mt-1 w-32 overflow-hidden rounded-lg border border-line bg-surface py-1 shadow-lg">
          {onEdit && (
            <button type="button" role="menuitem" className={item} onClick={() => (onClose(), onEdit())}>
              <Pencil className="size-4" aria-hidden /> {t('comments.edit')}
            </button>
          )}
          {onDelete && (
            <button type="button" role="menuitem" className={`${item} text-danger`} onClick={() => (onClose(), onDelete())}>
              <Trash2 className="size-4" aria-hidden /> {t('common.delete')}
            </button>
          )}
          {onReport && (
            <button type="button" role="menuitem" className={item} onClick={() => (onClose(), onReport())}>
              <Flag className="size-4" aria-hidden /> {t('comments.report')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** Open-menu bookkeeping for a list: one id at most; toggling the open one closes all. */
export function toggleOpen(current: string | null, id: string): string | null {
  return current === id ? null : id;
}
