import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProvider } from '@/app/provider.tsx';
import { routes } from '@/app/router.tsx';
import { createQueryClient } from '@/lib/query-client.ts';

type Answer = { status?: number; data?: unknown; message?: string; headers?: Record<string, string> } | undefined;
/** May answer later (a promise) to hold a call in flight. */
export type Handler = (url: URL, init: RequestInit) => Answer | Promise<Answer>;

/**
 * Fake the API at the network boundary: `handler` answers each call (undefined -> 404).
 * Returns the list of calls made.
 */
export function fakeApi(handler: Handler) {
  const calls: { url: URL; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      calls.push({ url, method: init.method ?? 'GET', body });
      const answer = (await handler(url, init)) ?? { status: 404, message: 'Not found' };
      const status = answer.status ?? 200;
      const ok = status < 400;
      return new Response(JSON.stringify({ statusCode: status, data: answer.data ?? null, message: answer.message ?? '', success: ok, errors: [] }), {
        status,
        headers: { 'Content-Type': 'application/json', ...answer.headers },
      });
    }),
  );
  return calls;
}

/** Render the whole app at `path` (real routes, memory history, fresh query cache). */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router, queryClient };
}
