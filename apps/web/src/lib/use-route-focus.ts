import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/** How long a lazy page has to show its heading before the main region takes the focus instead. */
const HEADING_WAIT_MS = 2000;

/**
 * After a route change (not on the first load) focus moves to the new page's main heading, or the
 * main region while it has none, so keyboard and screen-reader users start on the new page instead
 * of the body. The heading gets tabindex=-1 to be focusable; the page does not scroll for it.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const region = main.current;
    if (!region) return;
    const focusHeading = () => {
      const h1 = region.querySelector<HTMLElement>('h1');
      if (!h1) return false;
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      h1.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    region.focus({ preventScroll: true });
    // A lazy page renders its heading later: move on to it if nothing else took the focus meanwhile.
    const observer = new MutationObserver(() => {
      if (document.activeElement !== region) return observer.disconnect();
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(region, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [pathname, main]);
}
