import { describe, expect, it } from 'vitest';
import { pace } from './pace.ts';

describe('pace (background batches yield to requests)', () => {
  it('waits for the time that keeps the batches to their share, and returns at once when aborted', async () => {
    // A batch that "began" 40 ms ago, at a share of 0.5: the wait is about as long as the batch.
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      waits.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout;
    try {
      await pace(performance.now() - 40, new AbortController().signal, 0.5);
      await pace(performance.now() - 40, new AbortController().signal, 0.2);
      await pace(performance.now() - 40, new AbortController().signal, 1);
      const aborted = new AbortController();
      aborted.abort();
      await pace(performance.now() - 40, aborted.signal, 0.5);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(40);
    expect(waits[0]).toBeLessThan(80);
    // A share of 0.2: four times the batch's time.
    expect(waits[1]).toBeGreaterThanOrEqual(160);
    expect(waits[1]).toBeLessThan(320);
  });

  it('ends a wait when the job is stopped', async () => {
    const stop = new AbortController();
    const waiting = pace(performance.now() - 3_600_000, stop.signal, 0.5);
    stop.abort();
    await waiting;
    expect(stop.signal.aborted).toBe(true);
  });
});
