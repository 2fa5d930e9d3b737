import { afterEach, describe, expect, it } from 'vitest';
import { appStylesApplied } from './shell-styles.ts';

/** A shell page's deferred sheet (jsdom loads no stylesheets: `sheet` is set by hand). */
function deferredSheet(loaded: boolean): HTMLLinkElement {
  document.head.innerHTML = '<link rel="stylesheet" href="/assets/main-1.css" media="print" data-app-css />';
  const link = document.querySelector('link')!;
  Object.defineProperty(link, 'sheet', { value: loaded ? {} : null, configurable: true });
  return link;
}

const settledNow = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  // The code under test sets no timers: one macrotask flushes every microtask it queued.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('appStylesApplied', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('resolves at once on a page without deferred sheets, leaving its stylesheets alone', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/main-1.css" />';
    expect(await settledNow(appStylesApplied())).toBe(true);
    expect(document.querySelector('link')!.getAttribute('media')).toBeNull();
  });

  it('applies a sheet that has loaded at once', async () => {
    const link = deferredSheet(true);
    expect(await settledNow(appStylesApplied())).toBe(true);
    expect(link.media).toBe('all');
  });

  it('waits for a sheet still loading, then applies it (also when it failed)', async () => {
    for (const event of ['load', 'error']) {
      const link = deferredSheet(false);
      const applied = appStylesApplied();
      expect(await settledNow(applied)).toBe(false);
      expect(link.media).toBe('print');
      link.dispatchEvent(new Event(event));
      expect(await settledNow(applied)).toBe(true);
      expect(link.media).toBe('all');
    }
  });
});
