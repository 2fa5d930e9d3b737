import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accessTokenForCall, buildUrl } from '@/lib/api-client.ts';
import { applyUnread } from './notifications-api.ts';
import { parseSse } from './sse.ts';

/** First wait after a failure unless the server advises another (`retry:`); doubled per failure up to MAX. */
const RETRY_MS = 3_000;
const MAX_RETRY_MS = 60_000;
/** A stream that ends sooner than this without an error still counts as a failure (no tight reconnect loop). */
const HEALTHY_MS = 10_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Reads one stream to its end, calling `onEvent` per event; returns the server's `retry:` advice, if any. */
async function readStream(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: string) => void): Promise<number | null> {
  const reader = body.getReader();
  // stream: true keeps a character whose bytes straddle two reads whole.
  const decoder = new TextDecoder();
  let buffer = '';
  let retry: number | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return retry;
    const parsed = parseSse(buffer + decoder.decode(value, { stream: true }));
    buffer = parsed.rest;
    retry = parsed.retry ?? retry;
    for (const e of parsed.events) onEvent(e.event, e.data);
  }
}

/**
 * Keeps the unread count live for the logged-in user `userId` over GET notifications/stream.
 * fetch, not EventSource: the stream needs the Bearer token. It reconnects when the server ends
 * the stream (the token it was opened with expired) with a fresh token, backs off on errors,
 * and stops on logout (userId null) or unmount.
 */
export function useNotificationStream(userId: string | null) {
  const client = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const stop = new AbortController();
    const { signal } = stop;
    void (async () => {
      let failures = 0;
      let advised = RETRY_MS;
      while (!signal.aborted) {
        const opened = Date.now();
        try {
          // The token of the app's session (refreshed when near expiry, or by the start-up refresh in
          // flight). The stream never refreshes or clears the session itself: the app's calls do, and
          // without a token it waits and tries again.
          const token = await accessTokenForCall();
          if (!token) throw new Error('no access token yet');
          const res = await fetch(buildUrl('notifications/stream'), {
            headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
            credentials: 'include',
            signal,
          });
          if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
          const retry = await readStream(res.body, (event, data) => {
            if (event !== 'unread') return;
            const { unread } = JSON.parse(data) as { unread: unknown };
            if (typeof unread === 'number') applyUnread(client, unread);
          });
          advised = retry ?? advised;
          if (Date.now() - opened < HEALTHY_MS) throw new Error('stream ended early');
          failures = 0;
        } catch {
          if (signal.aborted) return;
          failures += 1;
          await sleep(Math.min(advised * 2 ** (failures - 1), MAX_RETRY_MS), signal);
        }
      }
    })();
    return () => stop.abort();
  }, [userId, client]);
}
