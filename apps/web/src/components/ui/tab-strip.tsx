import clsx from 'clsx';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { t } from '@/lib/i18n/i18n.ts';

/** How far the strip fades out on a side with more tabs (px). */
const FADE = 24;

/**
 * A row of tabs (links, as a `flex min-w-max` list) that scrolls sideways when it does not fit,
 * and shows it: a side with more tabs fades out, and a button at each end scrolls the strip by
 * most of its width (dimmed, but kept in the tab order, once that end is reached). Tabbing through
 * the links scrolls them into view as well; the current tab is brought into view on arrival.
 */
export function TabStrip({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const [more, setMore] = useState({ before: false, after: false });
  const { pathname } = useLocation();
  const overflowing = more.before || more.after;

  useLayoutEffect(() => {
    if (!scroller) return;
    const update = () => {
      const end = scroller.scrollWidth - scroller.clientWidth;
      const next = { before: scroller.scrollLeft > 1, after: scroller.scrollLeft < end - 1 };
      setMore((m) => (m.before === next.before && m.after === next.after ? m : next));
    };
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    // The tabs' own width changes too (another language, a tab more).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(scroller);
    if (scroller.firstElementChild) observer?.observe(scroller.firstElementChild);
    return () => {
      scroller.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [scroller]);

  // Again once the buttons took their room.
  useLayoutEffect(() => {
    if (!scroller) return;
    const current = scroller.querySelector<HTMLElement>('[aria-current="page"]');
    if (current && (current.offsetLeft < scroller.scrollLeft || current.offsetLeft + current.offsetWidth > scroller.scrollLeft + scroller.clientWidth)) {
      scroller.scrollLeft = current.offsetLeft - (scroller.clientWidth - current.offsetWidth) / 2;
    }
  }, [scroller, pathname, overflowing]);

  const scroll = (direction: 1 | -1) => {
    if (!scroller) return;
    const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    scroller.scrollBy({ left: direction * scroller.clientWidth * 0.75, behavior: smooth ? 'smooth' : 'auto' });
  };
  const mask = `linear-gradient(to right, ${more.before ? 'transparent' : '#000'}, #000 ${FADE}px, #000 calc(100% - ${FADE}px), ${more.after ? 'transparent' : '#000'})`;
  const button = (direction: 1 | -1) => {
    const able = direction === 1 ? more.after : more.before;
    return (
      <button
        type="button"
        aria-label={direction === 1 ? t('common.scrollTabsRight') : t('common.scrollTabsLeft')}
        title={direction === 1 ? t('common.scrollTabsRight') : t('common.scrollTabsLeft')}
        aria-disabled={!able}
        onClick={() => able && scroll(direction)}
        className={clsx('flex w-8 shrink-0 items-center justify-center rounded-md text-fg-muted', able ? 'hover:bg-surface-subtle hover:text-fg' : 'opacity-40')}
      >
        {direction === 1 ? <ChevronRight className="size-5" aria-hidden /> : <ChevronLeft className="size-5" aria-hidden />}
      </button>
    );
  };
  return (
    <nav aria-label={label} className={clsx('flex', className)}>
      {overflowing && button(-1)}
      <div
        ref={setScroller}
        data-scroll-strip
        className="relative min-w-0 flex-1 overflow-x-auto [scrollbar-width:none]"
        style={overflowing ? { maskImage: mask, WebkitMaskImage: mask } : undefined}
      >
        {children}
      </div>
      {overflowing && button(1)}
    </nav>
  );
}
