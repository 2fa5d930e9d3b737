import { afterEach, beforeEach, expect, vi } from 'vitest';

// Unexpected console.error output fails the test that produced it.
let spy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  spy = vi.spyOn(console, 'error');
});
afterEach(() => {
  const calls = spy.mock.calls;
  spy.mockRestore();
  expect(calls, 'unexpected console.error').toEqual([]);
});
