import { afterEach, describe, expect, it } from 'vitest';
import { applyAppStyles, appStylesLoaded } from './shell-styles.ts';

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

describe("the shell page's deferred app stylesheets", () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('are none on a page whose stylesheets are as built: nothing to wait for, nothing changed', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/main-1.css" />';
    expect(await settledNow(appStylesLoaded())).toBe(true);
    applyAppStyles();
    expect(document.querySelector('link')!.getAttribute('media')).toBeNull();
  });

  it('are waited for until loaded, or failed, and applied only when asked (in the first commit)', async () => {
    for (const event of ['load', 'error']) {
      const link = deferredSheet(false);
      const loaded = appStylesLoaded();
      expect(await settledNow(loaded)).toBe(false);
      link.dispatchEvent(new Event(event));
      expect(await settledNow(loaded)).toBe(true);
      expect(link.media).toBe('print');
      applyAppStyles();
      expect(link.media).toBe('all');
    }
    const ready = deferredSheet(true);
    expect(await settledNow(appStylesLoaded())).toBe(true);
    expect(ready.media).toBe('print');
  });
});
