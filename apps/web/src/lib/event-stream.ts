import { accessTokenForCall, buildUrl } from './api-client.ts';
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

export interface EventStreamOptions {
  /** 'required': open only with a login (waiting for one); 'optional': send the token when there is one. */
  login: 'required' | 'optional';
  onEvent: (event: string, data: string) => void;
}

/**
 * Keeps the Server-Sent Events stream at API `path` open until `signal` aborts. fetch, not
 * EventSource: the stream carries the Bearer token, so what only the logged-in user may hear (their
 * notifications, the chat of their private live) arrives too. It reconnects when the server ends the
 * stream, with a fresh token, and backs off on errors. It never refreshes or clears the session
 * itself: the app's calls do (a refresh in flight is waited for).
 */
export async function followEventStream(path: string, { login, onEvent }: EventStreamOptions, signal: AbortSignal): Promise<void> {
  let failures = 0;
  let advised = RETRY_MS;
  while (!signal.aborted) {
    const opened = Date.now();
    try {
      const token = await accessTokenForCall();
      if (!token && login === 'required') throw new Error('no access token yet');
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (token) headers.Authorization = `Bearer ${token}`;
      const res = await fetch(buildUrl(path), { headers, credentials: 'include', signal });
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      advised = (await readStream(res.body, onEvent)) ?? advised;
      if (Date.now() - opened < HEALTHY_MS) throw new Error('stream ended early');
      failures = 0;
    } catch {
      if (signal.aborted) return;
      failures += 1;
      await sleep(Math.min(advised * 2 ** (failures - 1), MAX_RETRY_MS), signal);
    }
  }
}
