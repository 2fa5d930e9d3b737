import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { createQueryClient } from '@/lib/query-client.ts';

/** Query cache and toasts. react-hot-toast's defaults are the spec's toast timings (§9). */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster position="top-center" gutter={8} />
    </QueryClientProvider>
  );
}
