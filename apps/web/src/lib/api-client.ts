import toast from 'react-hot-toast';
import type { Envelope, QueryValue } from './api-types.ts';
import { takeFirstAnswer } from './first-data.ts';
import { session } from './session.ts';

/** Same value as API_PREFIX in @glimpse/contract; not imported so the shell bundle stays free of zod. */
export const API_BASE = '/api/v1';
const JWT_EXPIRED = 'jwt expired';
/** Refresh this long before the token's stated expiry, for clocks that differ a little. */
const EXPIRY_MARGIN_MS = 10_000;

/** A non-2xx answer (or a network failure, status 0) with the server's message. */
export class ApiError extends Error {
  readonly status: number;
  readonly data: Record<string, unknown> | null;
  constructor(status: number, message: string, data: Record<string, unknown> | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON-serialised unless FormData. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** For the auth calls themselves: a 401 there is an answer, not an expired session. */
  skipRefresh?: boolean;
  /** The request outlives the page (a last report as the page goes away). */
  keepalive?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}/${path.replace(/^\//, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  return fetch(buildUrl(path, opts.query), {
    method: opts.method ?? 'GET',
    headers,
    body,
    signal: opts.signal,
    keepalive: opts.keepalive,
    credentials: 'include',
  });
}

async function parse<T>(res: Response): Promise<Envelope<T>> {
  const text = await res.text();
  if (text) {
    try {
      return JSON.parse(text) as Envelope<T>;
    } catch {
      // Not JSON (a proxy error page): fall through to a generic envelope.
    }
  }
  return { statusCode: res.status, data: null as T, message: res.statusText || `HTTP ${res.status}`, success: res.ok };
}

function toError(res: Response, body: Envelope<unknown>): ApiError {
  const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : null;
  return new ApiError(res.status, body.message || `HTTP ${res.status}`, data);
}

let refreshing: Promise<string> | null = null;

/**
 * The server refused the refresh token (4xx), as opposed to a request that never got its answer
 * (the page reloaded or went offline mid-refresh) or a busy server (429, 5xx): only the first ends
 * the session, else a reload during the start-up refresh would sign the viewer out.
 */
const refusesToken = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429;

/**
 * Trade the refresh cookie for a new access token. Concurrent callers share one
 * request, so a burst of expired calls causes exactly one refresh. A refusal clears
 * the session.
 */
export function refreshAccessToken(options: { silent?: boolean } = {}): Promise<string> {
  refreshing ??= (async () => {
    try {
      const res = await send('auths/refresh-token', { method: 'POST', body: {} }, null);
      const body = await parse<{ accessToken: string }>(res);
      if (!res.ok || !body.data?.accessToken) throw toError(res, body);
      session.setAccessToken(body.data.accessToken);
      return body.data.accessToken;
    } catch (err) {
      if (refusesToken(err)) session.end();
      if (!options.silent) toast.error('Error refreshing token');
      throw err instanceof ApiError ? err : new ApiError(0, 'Error refreshing token');
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** When a JWT says it expires (ms since the epoch), or null. Read, not verified: the server does that. */
function expiryOf(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * The access token for a call, refreshed first when it has expired. The server answers calls
 * that need no login anonymously for an expired token, so sending it would silently lose the
 * viewer's state (isSubscribed, likeStatus, their own drafts). A failed refresh leaves the call
 * anonymous: the session is cleared and a login-only call then gets its 401.
 */
export async function accessTokenForCall(): Promise<string | null> {
  // A refresh in flight (at start-up or after an expiry) will hand out the token this call needs.
  if (refreshing) await refreshing.catch(() => undefined);
  const token = session.getAccessToken();
  const expiry = token ? expiryOf(token) : null;
  if (token && expiry !== null && expiry - EXPIRY_MARGIN_MS <= Date.now()) return refreshAccessToken().catch(() => null);
  return token;
}

/** The full answer envelope of a call, with the access token and one refresh-and-retry on 'jwt expired'. */
export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<Envelope<T>> {
  const tokenUsed = opts.skipRefresh ? session.getAccessToken() : await accessTokenForCall();
  let res = await send(path, opts, tokenUsed);
  let body = await parse<T>(res);

  if (res.status === 401 && !opts.skipRefresh) {
    if (body.message !== JWT_EXPIRED) {
      // A call that carried no token (its refresh got no answer) says nothing about the session.
      if (tokenUsed) session.end();
      throw toError(res, body);
    }
    const current = session.getAccessToken();
    // Another call may have refreshed while this one was in flight: reuse its token.
    const token = current && current !== tokenUsed ? current : await refreshAccessToken();
    res = await send(path, opts, token);
    body = await parse<T>(res);
    if (res.status === 401) session.end();
  }
  if (!res.ok || body.success === false) throw toError(res, body);
  return body;
}

export const api = {
  // The first page's embedded answers (ADR 017) stand in for the network once.
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) => {
    const first = takeFirstAnswer<T>(path, query);
    return first ? Promise.resolve(first) : apiRequest<T>(path, { query, signal });
  },
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...opts, method: 'POST', body }),
  patch: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...opts, method: 'PATCH', body }),
  put: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) => apiRequest<T>(path, { ...opts, method: 'PUT', body }),
  delete: <T>(path: string, opts: Omit<RequestOptions, 'method'> = {}) => apiRequest<T>(path, { ...opts, method: 'DELETE' }),
};

/**
 * A file the API sends as a download (not the JSON envelope): the body and the name the server
 * gives it in Content-Disposition. A failure is the usual ApiError with the server's message.
 */
export async function apiDownload(path: string, fallbackName: string): Promise<{ blob: Blob; filename: string }> {
  const res = await send(path, {}, await accessTokenForCall());
  if (!res.ok) {
    if (res.status === 401) session.end();
    throw toError(res, await parse(res));
  }
  const named = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1];
  return { blob: await res.blob(), filename: named ?? fallbackName };
}

/** Downloads an API file (apiDownload) and saves it through a temporary link. */
export async function saveApiDownload(path: string, fallbackName: string): Promise<void> {
  const { blob, filename } = await apiDownload(path, fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The server's message of a failed call, for toasts. */
export function errorMessage(err: unknown, fallback = 'Something went wrong'): string {
  return err instanceof Error && err.message ? err.message : fallback;
}

export const isApiError = (err: unknown, status?: number): err is ApiError =>
  err instanceof ApiError && (status === undefined || err.status === status);
