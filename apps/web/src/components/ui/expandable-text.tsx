import { useState } from 'react';

/** Text cut at `limit` characters with '...', or null when it fits (spec §4, §9). */
export function truncate(text: string, limit: number): string | null {
  const chars = Array.from(text);
  return chars.length > limit ? `${chars.slice(0, limit).join('')}...` : null;
}

/** Long text cut at `limit` characters with a toggle ('Read more' / 'Show less' for tweets). */
export function ExpandableText({
  text,
  limit = 100,
  moreLabel = 'Read more',
  lessLabel = 'Show less',
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
          <button type="button" className="rounded font-medium text-blue-700 hover:underline" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            {open ? lessLabel : moreLabel}
          </button>
        </>
      )}
    </p>
  );
}
