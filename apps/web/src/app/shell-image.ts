/** How long the app waits at most for the shell's main image before it renders over it. */
export const SHELL_IMAGE_WAIT_MS = 1500;

/**
 * Resolves once the server shell's main image (the watch page's poster, home's first thumbnails:
 * the `fetchpriority="high"` ones) has been painted, at once when there is none, one frame later when it is already
 * loaded. Rendering over the shell before it is painted would make the app's own copy of the image the
 * page's largest paint, seconds later on a phone (ADR 017). Bounded: a slow image never holds the app back long.
 */
export function shellImagesShown(root: ParentNode = document, limitMs = SHELL_IMAGE_WAIT_MS): Promise<void> {
  const images = [...root.querySelectorAll<HTMLImageElement>('#root img[fetchpriority="high"]')];
  if (images.length === 0) return Promise.resolve();
  // A complete image may still wait for its first paint (it loaded while scripts ran): one frame for all.
  const loaded = images.filter((img) => !img.complete).map(
    (img) =>
      new Promise<void>((resolve) => {
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => resolve(), { once: true });
      }),
  );
  // Loaded, then one frame painted with it.
  const painted = Promise.all(loaded).then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  return Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, limitMs))]);
}
