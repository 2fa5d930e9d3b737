import type { PendingRegistration } from '@glimpse/contract';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

interface RegistrationsPage {
  data: PendingRegistration[];
  hasNextPage: boolean;
  nextCursor: string | null;
}

export const registrationsQueryOptions = infiniteQueryOptions({
  queryKey: ['moderation', 'registrations'],
  initialPageParam: null as string | null,
  queryFn: async ({ pageParam, signal }) =>
    (await api.get<RegistrationsPage>('moderation/registrations', { limit: 25, cursor: pageParam ?? undefined }, signal)).data,
  getNextPageParam: (last) => (last.hasNextPage ? last.nextCursor : null),
});

/** Approve (no reason) or reject (with the reason mailed to the person); the list is read again either way. */
export function useDecideRegistration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, decision, reason }: { userId: string; decision: 'approve' | 'reject'; reason?: string }) =>
      api.post<null>(`moderation/registrations/${userId}/${decision}`, decision === 'reject' ? { reason } : undefined),
    onSettled: () => client.invalidateQueries({ queryKey: registrationsQueryOptions.queryKey }),
  });
}
