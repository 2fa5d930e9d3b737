import { APP_CSS_ATTRIBUTE } from '@glimpse/contract/first-paint';

/**
 * Applies the app's stylesheets that a shell page loads without blocking its paint (`media="print"`,
 * ADR 017 addendum 6), once they have loaded: the first render must not show the app unstyled. At
 * once on a page without them. A sheet that failed to load is applied anyway (its rules are simply
 * missing, as with a failed stylesheet link).
 */
export function appStylesApplied(root: ParentNode = document): Promise<void> {
  const links = [...root.querySelectorAll<HTMLLinkElement>(`link[${APP_CSS_ATTRIBUTE}]`)];
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          const apply = () => {
            link.media = 'all';
            resolve();
          };
          if (link.sheet) return apply();
          link.addEventListener('load', apply, { once: true });
          link.addEventListener('error', apply, { once: true });
        }),
    ),
  ).then(() => undefined);
}
