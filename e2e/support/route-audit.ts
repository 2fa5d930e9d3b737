import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { SCREEN_WIDTHS, screenshotsDir } from './screenshots.ts';

export const THEMES = ['light', 'dark'] as const;
/** WCAG 2.0-2.2 A/AA and axe's best practices. */
const AUDIT_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
/**
 * The page's outline, whatever axe's impact ("moderate"): one h1, no skipped heading level, no two
 * landmarks of one role with one name (issue 34 item 14). A screen-reader user moves by these.
 */
const STRUCTURE_RULES = ['page-has-heading-one', 'heading-order', 'landmark-unique'];
export type Theme = (typeof THEMES)[number];

/** A screen of the app: a name for its screenshot files and the address that opens it. */
export interface AuditedRoute {
  name: string;
  href: string;
}

/**
 * Waits until the screen has rendered its content: a <main>, no loading spinner
 * (a role=status that is not a toast, holding an animated element), fonts and images in.
 * Lazy images are made eager so full-page shots have no holes.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const loading = Array.from(document.querySelectorAll('[role="status"]:not([aria-live])')).some((s) => s.querySelector('.animate-spin'));
    return document.querySelector('main') !== null && !loading;
  });
  await page.evaluate(async () => {
    document.querySelectorAll('img[loading="lazy"]').forEach((img) => ((img as HTMLImageElement).loading = 'eager'));
    await document.fonts.ready;
  });
  // A missing image must not hang the audit: its broken icon is visible in the shot.
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 10_000 }).catch(() => {});
}

/** Switches the emulated colour scheme and waits until the colours have eased in (transition-colors), not a blend of both. */
export async function emulateTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate(async () => {
    await new Promise(requestAnimationFrame);
    await Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => {})));
  });
}

/**
 * Opens `route` once, then for each theme (emulated prefers-color-scheme) and width runs axe on
 * the whole document, keeping serious and critical violations and, in the first theme, any
 * breach of the page's outline (STRUCTURE_RULES), and saves a full-page shot to
 * artifacts/screenshots/<theme>/<width>/<name>.png. Returns the violations, prefixed by theme and width.
 */
export async function auditRoute(page: Page, route: AuditedRoute, widths: readonly number[] = SCREEN_WIDTHS): Promise<string[]> {
  await page.goto(route.href);
  const found: string[] = [];
  for (const theme of THEMES) {
    await emulateTheme(page, theme);
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      // A theme changes colours only: after the first, the AA colour rules are enough (and much quicker).
      const rules = theme === THEMES[0] ? { tags: AUDIT_TAGS } : { rules: ['color-contrast', 'link-in-text-block'] };
      for (const v of await axeViolations(page, { impacts: ['serious', 'critical'], ...rules })) found.push(`${theme} ${width}px: ${v}`);
      if (theme === THEMES[0]) for (const v of await axeViolations(page, { rules: STRUCTURE_RULES })) found.push(`${width}px: ${v}`);
      const dir = path.join(screenshotsDir, theme, String(width));
      await mkdir(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, `${route.name}.png`), fullPage: true, animations: 'disabled', caret: 'hide' });
    }
  }
  return found;
}
