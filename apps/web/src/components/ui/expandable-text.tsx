import { useState } from 'react';
import { t } from '@/lib/i18n/i18n.ts';

/** Text cut at `limit` characters with '...', or null when it fits (spec §4, §9). */
export function truncate(text: string, limit: number): string | null {
  const chars = Array.from(text);
  return chars.length > limit ? `${chars.slice(0, limit).join('')}...` : null;
}

/** Long text cut at `limit` characters with a toggle ('Read more' / 'Show less' for tweets). */
export function ExpandableText({
  text,
  limit = 100,
  moreLabel,
  lessLabel,
  className,
}: {
  text: string;
  limit?: number;
  moreLabel?: string;
  lessLabel?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const cut = truncate(text, limit);
  return (
    <p className={className ?? 'whitespace-pre-wrap break-words text-sm'}>
      {cut === null || open ? text : cut}
      {cut !== null && (
        <>
          {' '}
          <button type="button" className="rounded font-medium text-link hover:underline" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            {open ? (lessLabel ?? t('text.showLess')) : (moreLabel ?? t('text.readMore'))}
          </button>
        </>
      )}
    </p>
  );
}
