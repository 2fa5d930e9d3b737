import type { ReactNode } from 'react';

/**
 * The one grid of video and playlist cards (docs/design.md): as many columns of at least 16rem as
 * fit, so a card has the same size on home, channel and personal lists. Children are <li> items.
 */
export function MediaGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,16rem),1fr))] gap-x-4 gap-y-8">
      {children}
    </ul>
  );
}
