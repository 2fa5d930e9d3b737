import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

type AppRouter = ReturnType<typeof createAppRouter>;

/** main.tsx passes a router and query client it has already prepared for the first screen (ADR 017). */
export function App({ router: ready, queryClient }: { router?: AppRouter; queryClient?: QueryClient } = {}) {
  const [router] = useState(() => ready ?? createAppRouter());
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
