import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { Toaster } from 'react-hot-toast';
import { useLocale } from '@/lib/i18n/i18n.ts';
import { createQueryClient } from '@/lib/query-client.ts';

/**
 * Query cache and toasts. react-hot-toast's defaults are the spec's toast timings (§9).
 * A language switch renders the tree below again from scratch (ADR 021): every string, including
 * those computed once in state, follows; the URL, query cache and session stay.
 */
export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const locale = useLocale();
  return (
    <QueryClientProvider client={client}>
      <Fragment key={locale}>{children}</Fragment>
      <Toaster position="top-center" gutter={8} />
    </QueryClientProvider>
  );
}
