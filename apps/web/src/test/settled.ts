import { vi } from 'vitest';

/** Whether `p` has settled once the fake clock has run what is due now (tests under `vi.useFakeTimers()`). */
export async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}
