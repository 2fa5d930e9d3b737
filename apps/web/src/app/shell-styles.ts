import { APP_CSS_ATTRIBUTE } from '@glimpse/contract/first-paint';

/** The app's stylesheets that a shell page loads without blocking its paint (`media="print"`, ADR 017 addendum 6). */
const deferredSheets = (root: ParentNode) => [...root.querySelectorAll<HTMLLinkElement>(`link[${APP_CSS_ATTRIBUTE}]`)];

/**
 * Resolves once the shell page's deferred stylesheets have loaded (or failed: their rules are then
 * simply missing, as with a failed stylesheet link); at once on a page without them. The first
 * render waits for this: it must not show the app unstyled.
 */
export function appStylesLoaded(root: ParentNode = document): Promise<void> {
  return Promise.all(
    deferredSheets(root).map(
      (link) =>
        new Promise<void>((resolve) => {
          if (link.sheet) return resolve();
          link.addEventListener('load', () => resolve(), { once: true });
          link.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  ).then(() => undefined);
}

/**
 * Applies the deferred stylesheets. Called in the commit of the app's first render (main.tsx), which
 * also takes the shell off the page: the browser then styles and lays the page out once, for the
 * app, instead of once for the shell under the app's rules and again after the commit (ADR 017
 * addendum 8).
 */
export function applyAppStyles(root: ParentNode = document): void {
  for (const link of deferredSheets(root)) link.media = 'all';
}
