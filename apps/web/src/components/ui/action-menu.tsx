import { EllipsisVertical, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { IconButton } from './button.tsx';

/**
 * The owner's Edit/Delete menu (spec §4). The parent holds which menu is open so only one
 * is open at a time; clicking the same toggle again closes it. Escape and a click outside close it.
 */
export function ActionMenu({
  label,
  open,
  onToggle,
  onClose,
  onEdit,
  onDelete,
}: {
  /** Accessible name of the toggle, e.g. 'Tweet options'. */
  label: string;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const root = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) onCloseRef.current();
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onCloseRef.current();
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const item = 'flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-zinc-100';
  return (
    <div ref={root} className="relative">
      <IconButton label={label} aria-haspopup="menu" aria-expanded={open} onClick={onToggle} className="size-8">
        <EllipsisVertical className="size-4" aria-hidden />
      </IconButton>
      {open && (
        <div role="menu" aria-label={label} className="absolute right-0 z-20 mt-1 w-32 overflow-hidden rounded-lg border border-zinc-200 bg-white py-1 shadow-lg">
          <button type="button" role="menuitem" className={item} onClick={() => (onClose(), onEdit())}>
            <Pencil className="size-4" aria-hidden /> Edit
          </button>
          <button type="button" role="menuitem" className={`${item} text-red-700`} onClick={() => (onClose(), onDelete())}>
            <Trash2 className="size-4" aria-hidden /> Delete
          </button>
        </div>
      )}
    </div>
  );
}

/** Open-menu bookkeeping for a list: one id at most; toggling the open one closes all. */
export function toggleOpen(current: string | null, id: string): string | null {
  return current === id ? null : id;
}
