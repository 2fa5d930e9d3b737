/**
 * Background work in batches (notification fan-out, mail runs) shares the machine with the API: by
 * default its batches take at most half of the wall time while it runs (ADR 025).
 */
export const BACKGROUND_SHARE = 0.5;

/**
 * Called after a batch that began at `batchStartedAt` (performance.now()): waits so that the batches
 * take at most `share` of the time, which lets the requests that queued behind the batch (in the
 * event loop, in PostgreSQL, on the CPU) go first. Returns at once when `signal` aborts (the caller
 * then sees it aborted), and when `share` is 1.
 */
export async function pace(batchStartedAt: number, signal: AbortSignal, share = BACKGROUND_SHARE): Promise<void> {
  if (share >= 1 || signal.aborted) return;
  const busy = performance.now() - batchStartedAt;
  const wait = (busy * (1 - share)) / share;
  if (wait <= 0) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, wait);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}
