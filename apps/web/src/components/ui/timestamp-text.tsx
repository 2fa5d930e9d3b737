import { timestampSeconds } from '@glimpse/contract/chapters';
import type { MouseEvent } from 'react';
import { t } from '@/lib/i18n/i18n.ts';

/** How a text's timestamps reach the player: up to `duration`, each a link (`href`) that `onSeek` follows in place. */
export interface TimestampLinks {
  duration: number;
  href: (seconds: number) => string;
  onSeek: (seconds: number) => void;
}

export type TextPart = string | { text: string; seconds: number };

// m:ss, mm:ss or h:mm:ss; what stands on either side is checked below, so '123:45' or '1:23:456' is no timestamp.
const STAMP = /(?:\d{1,2}:)?\d{1,2}:\d{2}/g;
const JOINED = /[\p{L}\p{N}_:]/u;

/** `text` cut around its timestamps ('1:23', '1:02:03') that fall within `duration`; the rest stays text. */
export function splitTimestamps(text: string, duration: number): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const m of text.matchAll(STAMP)) {
    const at = m.index;
    const end = at + m[0].length;
    if (JOINED.test(text[at - 1] ?? '') || JOINED.test(text[end] ?? '')) continue;
    const seconds = timestampSeconds(m[0]);
    if (seconds === null || seconds > duration) continue;
    if (at > from) parts.push(text.slice(from, at));
    parts.push({ text: m[0], seconds });
    from = end;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

/** A plain click seeks in place; a click meant for a new tab or window follows the link. */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * Text whose timestamps are links that seek the player. Rendered as React text and anchors only
 * (no HTML is parsed, so a description or comment cannot inject markup). Without `links`
 * (no player on the page), the text as it is.
 */
export function TimestampText({ text, links }: { text: string; links?: TimestampLinks }) {
  if (!links) return <>{text}</>;
  return (
    <>
      {splitTimestamps(text, links.duration).map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a
            key={i}
            href={links.href(part.seconds)}
            aria-label={t('watch.playFrom', { time: part.text })}
            onClick={(e) => {
              if (!plainClick(e)) return;
              e.preventDefault();
              links.onSeek(part.seconds);
            }}
            className="rounded font-medium text-link underline underline-offset-2 hover:decoration-2"
          >
            {part.text}
          </a>
        ),
      )}
    </>
  );
}
