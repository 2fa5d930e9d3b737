import path from 'node:path';
import type { Page } from '@playwright/test';
import { artifactsDir } from './env.ts';
import { toastsGone } from './ui.ts';

export const SCREEN_WIDTHS = [360, 800, 1440] as const;
export const screenshotsDir = path.join(artifactsDir, 'screenshots');

export interface ScreenshotOptions {
  widths?: readonly number[];
  height?: number;
  fullPage?: boolean;
  /** Awaited after each resize, before the shot: wait here for what must be on screen. */
  ready?: (page: Page, width: number) => Promise<void>;
}

/**
 * Writes e2e/artifacts/screenshots/<name>-<width>.png at each width, then restores the viewport.
 * Before each shot: `ready`, no toast on screen, every image loaded.
 */
export async function screenshotWidths(page: Page, name: string, opts: ScreenshotOptions = {}): Promise<string[]> {
  const original = page.viewportSize();
  const files: string[] = [];
  for (const width of opts.widths ?? SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: opts.height ?? 900 });
    await opts.ready?.(page, width);
    // Toasts are transient: shoot the page without them.
    await toastsGone(page);
    // Images that have not arrived would make a shot with holes.
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
    const file = path.join(screenshotsDir, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: opts.fullPage ?? false, animations: 'disabled', caret: 'hide' });
    files.push(file);
  }
  if (original) await page.setViewportSize(original);
  return files;
}
