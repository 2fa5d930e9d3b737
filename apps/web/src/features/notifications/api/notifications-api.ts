import type { Notification, UnreadCount } from '@glimpse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { api, errorMessage } from '@/lib/api-client.ts';
import { cursorPaging, fetchPage, listOf } from '@/lib/pagination.ts';

/** How many the bell's panel shows; the page has the rest. */
export const LATEST_COUNT = 8;

export const notificationKeys = {
  unread: ['notifications', 'unread'] as const,
  /** Every list below, to refresh them together when the count moves. */
  lists: ['notifications', 'list'] as const,
  latest: ['notifications', 'list', 'latest'] as const,
  page: (unreadOnly: boolean) => ['notifications', 'list', unreadOnly ? 'unread' : 'all'] as const,
};

export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.unread,
    queryFn: ({ signal }) => api.get<UnreadCount>('notifications/unread-count', undefined, signal).then((r) => r.data.unread),
    enabled,
    // The stream keeps it current; this is the first paint and the fallback when the stream is down.
    staleTime: 60_000,
  });

/** The newest few, for the bell's panel (fetched while it is open). */
export const useLatestNotifications = (enabled: boolean) =>
  useQuery({
    queryKey: notificationKeys.latest,
    queryFn: ({ signal }) =>
      api.get<Record<string, unknown>>('notifications', { limit: LATEST_COUNT }, signal).then((r) => listOf<Notification>(r.data, 'notifications')),
    enabled,
    staleTime: 0,
  });

export const useNotificationPages = (unreadOnly: boolean) =>
  useInfiniteQuery({
    queryKey: notificationKeys.page(unreadOnly),
    ...cursorPaging,
    queryFn: ({ pageParam, signal }) =>
      fetchPage<Notification>('notifications', 'notifications', { unread: unreadOnly ? 'true' : undefined }, pageParam, signal),
  });

/**
 * A new unread count (from the stream or an answer): the lists are fetched again only when it
 * moved, so the echo of the viewer's own "mark read" costs nothing.
 */
export function applyUnread(client: QueryClient, unread: number) {
  const before = client.getQueryData<number>(notificationKeys.unread);
  client.setQueryData(notificationKeys.unread, unread);
  if (before !== unread) void client.invalidateQueries({ queryKey: notificationKeys.lists });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.patch<UnreadCount>(`notifications/${encodeURIComponent(id)}/read`),
    onSuccess: ({ data }) => applyUnread(client, data.unread),
    onError: (err) => toast.error(errorMessage(err)),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ updated: number; unread: number }>('notifications/read-all'),
    onSuccess: ({ data }) => {
      applyUnread(client, data.unread);
      // Marked on the server even when the count was already 0 here (a stale cache).
      void client.invalidateQueries({ queryKey: notificationKeys.lists });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
}
