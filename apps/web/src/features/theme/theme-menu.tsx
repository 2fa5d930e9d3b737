import clsx from 'clsx';
import { Check, Monitor, Moon, Sun } from 'lucide-react';
import { useRef, useState } from 'react';
import { IconButton } from '@/components/ui/button.tsx';
import { useDismiss } from '@/components/ui/use-dismiss.ts';
import { setTheme, THEME_CHOICES, useTheme, type ThemeChoice } from './theme.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const LABELS: Record<ThemeChoice, MessageKey> = { system: 'theme.system', dark: 'theme.dark', light: 'theme.light' };
const ICONS = { system: Monitor, dark: Moon, light: Sun } as const;

/** The top bar's Appearance menu, for everyone (anonymous visitors too): device, dark or light theme. */
export function ThemeMenu({ className }: { className?: string }) {
  const choice = useTheme();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  const Icon = ICONS[choice];
  return (
    <div ref={root} className={clsx('relative', className)}>
      <IconButton label={t('theme.appearanceOf', { theme: t(LABELS[choice]) })} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Icon className="size-5" aria-hidden />
      </IconButton>
      {open && (
        <div role="menu" aria-label={t('theme.appearance')} className="absolute right-0 z-40 mt-1 w-48 overflow-hidden rounded-lg border border-line bg-surface py-1 shadow-lg">
          {THEME_CHOICES.map((c) => {
            const ItemIcon = ICONS[c];
            return (
              <button
                key={c}
                type="button"
                role="menuitemradio"
                aria-checked={c === choice}
                className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-surface-subtle"
                onClick={() => {
                  setTheme(c);
                  setOpen(false);
                }}
              >
                <ItemIcon className="size-4" aria-hidden />
                <span className="flex-1">{t(LABELS[c])}</span>
                {c === choice && <Check className="size-4" aria-hidden />}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
