import { t } from '@/lib/i18n/i18n.ts';

/** Marks a comment or tweet held for review (a watched word): only its author and its reviewer see it. */
export function HeldBadge() {
  return <span className="ml-2 whitespace-nowrap rounded bg-warning-subtle px-1.5 py-0.5 text-xs font-medium text-warning">{t('mod.held')}</span>;
}
