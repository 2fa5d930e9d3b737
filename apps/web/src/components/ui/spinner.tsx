import clsx from 'clsx';
import { t } from '@/lib/i18n/i18n.ts';

export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={clsx('flex justify-center p-6', className)}>
      <span className="size-8 animate-spin rounded-full border-4 border-line-strong border-t-accent" aria-hidden />
      <span className="sr-only">{label ?? t('common.loading')}</span>
    </div>
  );
}
