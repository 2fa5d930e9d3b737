import { Dialog } from '@/components/ui/dialog.tsx';
import { SHORTCUTS } from './shortcuts.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The `?` overlay: every player shortcut. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title={t('player.shortcuts')}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map((s) => (
          <div key={s.label} className="contents">
            <dt className="flex gap-1">
              {s.keys.map((k) =>
                k === '…' ? (
                  <span key={k}>{k}</span>
                ) : (
                  <kbd key={k} className="min-w-6 rounded border border-line-strong bg-surface-subtle px-1.5 text-center font-mono text-xs leading-6">
                    {k === 'Space' ? t('key.space') : k}
                  </kbd>
                ),
              )}
            </dt>
            <dd>{t(s.label)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
