import type { AdminOverview, AdminUser, AdminUsersQuery, Role } from '@glimpse/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client.ts';

export const adminKeys = {
  overview: ['admin', 'overview'] as const,
  users: (q: Pick<AdminUsersQuery, 'q' | 'state'>) => ['admin', 'users', q] as const,
};

export const overviewQueryOptions = queryOptions({
  queryKey: adminKeys.overview,
  queryFn: async ({ signal }) => (await api.get<AdminOverview>('admin/overview', undefined, signal)).data,
  // The transcode queue moves on its own: refresh while the page is open.
  refetchInterval: 10_000,
});

interface UsersPage {
  users: AdminUser[];
  hasNextPage: boolean;
  nextCursor: string | null;
}

export const usersQueryOptions = (q: Pick<AdminUsersQuery, 'q' | 'state'>) =>
  infiniteQueryOptions({
    queryKey: adminKeys.users(q),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) =>
      (await api.get<UsersPage>('admin/users', { q: q.q || undefined, state: q.state, limit: 25, cursor: pageParam ?? undefined }, signal)).data,
    getNextPageParam: (last) => (last.hasNextPage ? last.nextCursor : null),
  });

export function useRetryTranscode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (videoId: string) => api.post<unknown>(`admin/transcodes/${videoId}/retry`),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.overview }),
  });
}

export function useSetRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => api.patch<unknown>(`admin/users/${userId}/role`, { role }),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'users'] }),
  });
}

/** DELETE admin/users/{id}: the account and everything in it (admins only; never oneself). */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<null>(`admin/users/${userId}`),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}
