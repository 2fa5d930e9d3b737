import { afterEach, describe, expect, it, vi } from 'vitest';
import { settled } from '@/test/settled.ts';
import { shellImagesShown } from './shell-image.ts';

/** A shell with one main image that has not loaded yet (jsdom loads no images: `complete` is set by hand). */
function shellWithImage(): HTMLImageElement {
  document.body.innerHTML = '<div id="root"><div class="fp-player"><img src="/media/poster.jpg" alt="" fetchpriority="high" /></div></div>';
  const img = document.querySelector('img')!;
  Object.defineProperty(img, 'complete', { value: false, configurable: true });
  return img;
}

describe('shellImagesShown', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('resolves at once without a shell image, one frame later when it is already loaded', async () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div id="root"><p>No image</p></div>';
    expect(await settled(shellImagesShown())).toBe(true);
    document.body.innerHTML = '<div id="root"><img src="/a.jpg" alt="" fetchpriority="high" /></div>';
    Object.defineProperty(document.querySelector('img')!, 'complete', { value: true });
    const shown = shellImagesShown();
    expect(await settled(shown)).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(await settled(shown)).toBe(true);
  });

  it('waits for the image to load and a frame to pass', async () => {
    vi.useFakeTimers();
    const img = shellWithImage();
    const shown = shellImagesShown();
    expect(await settled(shown)).toBe(false);
    img.dispatchEvent(new Event('load'));
    await vi.advanceTimersByTimeAsync(50);
    expect(await settled(shown)).toBe(true);
  });

  it('gives up waiting after the limit', async () => {
    vi.useFakeTimers();
    shellWithImage();
    const shown = shellImagesShown(document, 1500);
    await vi.advanceTimersByTimeAsync(1499);
    expect(await settled(shown)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(shown)).toBe(true);
  });
});
