import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { followEventStream } from '@/lib/event-stream.ts';
import { applyUnread } from './notifications-api.ts';

/**
 * Keeps the unread count live for the logged-in user `userId` over GET notifications/stream (which
 * the server ends when the token it was opened with expires; the next one opens with a fresh token).
 * It stops on logout (userId null) or unmount.
 */
export function useNotificationStream(userId: string | null) {
  const client = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const stop = new AbortController();
    const onEvent = (event: string, data: string) => {
      if (event !== 'unread') return;
      const { unread } = JSON.parse(data) as { unread: unknown };
      if (typeof unread === 'number') applyUnread(client, unread);
    };
    void followEventStream('notifications/stream', { login: 'required', onEvent }, stop.signal);
    return () => stop.abort();
  }, [userId, client]);
}
