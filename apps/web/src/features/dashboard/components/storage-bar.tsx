import type { StorageUsage } from '@glimpse/contract';
import { formatSize } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * What the account stores (its videos' originals and every file made from them) against the
 * instance's quota: a bar and "1.20 GB of 5.00 GB used", or just "1.20 GB used" without a quota
 * (sizes in the page's language, as everywhere: formatSize).
 */
export function StorageBar({ usage }: { usage: StorageUsage | undefined }) {
  if (!usage) return null;
  const { usedBytes, quotaBytes, remainingBytes } = usage;
  if (quotaBytes === null) {
    return <p className="text-sm text-fg-muted">{t('storage.usedOnly', { used: formatSize(usedBytes) })}</p>;
  }
  const percent = quotaBytes > 0 ? Math.min(100, Math.round((usedBytes / quotaBytes) * 100)) : 100;
  const full = remainingBytes === 0;
  return (
    <section aria-labelledby="storage-heading" className="rounded-xl border border-line p-4">
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="storage-heading" className="text-sm font-semibold">
          {t('storage.heading')}
        </h2>
        <p className="text-sm text-fg-muted">
          {t('storage.usedOf', { used: formatSize(usedBytes), quota: formatSize(quotaBytes) })} · {t('storage.left', { left: formatSize(remainingBytes ?? 0) })}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={t('storage.label')}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuetext={t('storage.usedOf', { used: formatSize(usedBytes), quota: formatSize(quotaBytes) })}
        className="h-2 overflow-hidden rounded-full bg-surface-strong"
      >
        <div className={full ? 'h-full bg-danger-solid' : percent >= 90 ? 'h-full bg-warning-solid' : 'h-full bg-accent'} style={{ width: `${percent}%` }} />
      </div>
      {full && <p className="mt-2 text-sm text-danger">{t('storage.full')}</p>}
    </section>
  );
}
