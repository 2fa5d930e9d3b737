import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, refreshAccessToken } from './api-client.ts';
import { session, type StoredUser } from './session.ts';

const user: StoredUser = { userId: 'u1', userName: 'ada', fullName: 'Ada L', email: 'ada@x.io', avatar: null, cover: null };

interface Call {
  url: string;
  method: string;
  auth: string | null;
  body: string | undefined;
}

/** A fake server at the network boundary: answers by handler, records every call. */
function fakeServer(handler: (call: Call) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const call = { url, method: init.method ?? 'GET', auth: headers.Authorization ?? null, body: init.body as string | undefined };
    calls.push(call);
    const { status, body } = await handler(call);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const ok = (data: unknown, message = 'ok') => ({ status: 200, body: { statusCode: 200, data, message, success: true } });
const fail = (status: number, message: string, data: unknown = null) => ({
  status,
  body: { statusCode: status, data, message, success: false, errors: [] },
});
const isRefresh = (c: Call) => c.url.endsWith('/auths/refresh-token');
/** An unsigned JWT-shaped token that expires `seconds` from now (the client only reads `exp`). */
const jwt = (seconds: number) => {
  const payload = btoa(JSON.stringify({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + seconds }));
  return `e30.${payload.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.sig`;
};

beforeEach(() => {
  localStorage.clear();
  session.reload();
  session.setAccessToken(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends the bearer token, JSON body and query, and returns the envelope', async () => {
    session.setAccessToken('A1');
    const calls = fakeServer(() => ok({ hello: 1 }, 'Fetched'));
    const res = await api.post<{ hello: number }>('things', { a: 1 }, { query: { page: 2, empty: '', none: undefined } });
    expect(res.data).toEqual({ hello: 1 });
    expect(res.message).toBe('Fetched');
    expect(calls[0]).toMatchObject({ url: '/api/v1/things?page=2', method: 'POST', auth: 'Bearer A1', body: '{"a":1}' });
  });

  it('sends no Authorization header without a token', async () => {
    const calls = fakeServer(() => ok(null));
    await api.get('videos');
    expect(calls[0]!.auth).toBeNull();
  });

  it('throws ApiError with the server message, status and data', async () => {
    fakeServer(() => fail(409, 'User name already exists', { availableUserName: 'ada1' }));
    const err = await api.patch('users/me', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, message: 'User name already exists', data: { availableUserName: 'ada1' } });
  });

  it("on 'jwt expired' refreshes once and retries the call with the new token", async () => {
    session.setAccessToken('OLD');
    session.setUser(user);
    const calls = fakeServer((c) => {
      if (isRefresh(c)) return ok({ accessToken: 'NEW', refreshToken: 'R2' });
      return c.auth === 'Bearer NEW' ? ok({ n: 1 }) : fail(401, 'jwt expired');
    });
    const res = await api.get<{ n: number }>('users/me');
    expect(res.data.n).toBe(1);
    expect(calls.map((c) => [c.url, c.auth])).toEqual([
      ['/api/v1/users/me', 'Bearer OLD'],
      ['/api/v1/auths/refresh-token', null],
      ['/api/v1/users/me', 'Bearer NEW'],
    ]);
    expect(session.getAccessToken()).toBe('NEW');
    expect(session.getUser()).toEqual(user);
  });

  it('runs exactly one refresh for concurrent expired calls; the others wait and retry', async () => {
    session.setAccessToken('OLD');
    session.setUser(user);
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((r) => (releaseRefresh = r));
    const calls = fakeServer(async (c) => {
      if (isRefresh(c)) {
        await refreshGate;
        return ok({ accessToken: 'NEW', refreshToken: 'R2' });
      }
      return c.auth === 'Bearer NEW' ? ok(c.url) : fail(401, 'jwt expired');
    });
    const pending = Promise.all([api.get('a'), api.get('b'), api.get('c')]);
    await vi.waitFor(() => expect(calls.filter(isRefresh)).toHaveLength(1));
    // A call started while the refresh runs waits for it instead of failing first.
    const late = api.get('d');
    releaseRefresh();
    const results = await Promise.all([pending, late]);
    expect(results[0].map((r) => r.data)).toEqual(['/api/v1/a', '/api/v1/b', '/api/v1/c']);
    expect(results[1].data).toBe('/api/v1/d');
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(calls.find((c) => c.url === '/api/v1/d')!.auth).toBe('Bearer NEW');
  });

  it('reuses a token refreshed by another call instead of refreshing again', async () => {
    session.setAccessToken('OLD');
    let answerSlowCall!: () => void;
    const slow = new Promise<void>((r) => (answerSlowCall = r));
    const calls = fakeServer(async (c) => {
      if (isRefresh(c)) return ok({ accessToken: 'NEW', refreshToken: 'R2' });
      if (c.url.endsWith('/slow') && c.auth === 'Bearer OLD') {
        await slow;
        return fail(401, 'jwt expired');
      }
      return c.auth === 'Bearer NEW' ? ok(null) : fail(401, 'jwt expired');
    });
    const slowCall = api.get('slow');
    await api.get('fast'); // refreshes while 'slow' is still in flight with the old token
    answerSlowCall();
    await slowCall;
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(calls.filter((c) => c.url.endsWith('/slow')).map((c) => c.auth)).toEqual(['Bearer OLD', 'Bearer NEW']);
  });

  it('clears the session on any other 401', async () => {
    session.setAccessToken('T');
    session.setUser(user);
    const calls = fakeServer(() => fail(401, 'Invalid token'));
    await expect(api.get('users/me')).rejects.toMatchObject({ status: 401, message: 'Invalid token' });
    expect(calls.filter(isRefresh)).toHaveLength(0);
    expect(session.getAccessToken()).toBeNull();
    expect(session.getUser()).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('clears the session when the refresh fails, and every waiting call fails', async () => {
    session.setAccessToken('OLD');
    session.setUser(user);
    const calls = fakeServer((c) => (isRefresh(c) ? fail(401, 'Invalid refresh token') : fail(401, 'jwt expired')));
    const results = await Promise.allSettled([api.get('a'), api.get('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(session.getAccessToken()).toBeNull();
    expect(session.getUser()).toBeNull();
  });

  it('keeps the session when the refresh gets no answer (a reload mid-refresh) or a busy server: only a refusal ends it', async () => {
    session.setUser(user);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError'))));
    await expect(refreshAccessToken({ silent: true })).rejects.toMatchObject({ status: 0 });
    expect(session.getUser()).toEqual(user);
    fakeServer(() => fail(503, 'Service Unavailable'));
    await expect(refreshAccessToken({ silent: true })).rejects.toMatchObject({ status: 503 });
    expect(session.getUser()).toEqual(user);
    // The calls waiting for it go without a token: their 401 does not end the session either.
    fakeServer((c) => (isRefresh(c) ? fail(503, 'Service Unavailable') : fail(401, 'Unauthorized request')));
    await expect(api.get('users/me')).rejects.toMatchObject({ status: 401 });
    expect(session.getUser()).toEqual(user);
    fakeServer(() => fail(401, 'Invalid or expired refresh token'));
    await expect(refreshAccessToken({ silent: true })).rejects.toMatchObject({ status: 401 });
    expect(session.getUser()).toBeNull();
  });

  it('clears the session when the retried call is still refused', async () => {
    session.setAccessToken('OLD');
    session.setUser(user);
    fakeServer((c) => (isRefresh(c) ? ok({ accessToken: 'NEW', refreshToken: 'R' }) : fail(401, 'jwt expired')));
    await expect(api.get('a')).rejects.toMatchObject({ status: 401 });
    expect(session.getUser()).toBeNull();
  });

  it('does not refresh for auth calls (skipRefresh): a 401 there is just an answer', async () => {
    session.setUser(user);
    const calls = fakeServer(() => fail(401, 'jwt expired'));
    await expect(api.post('auths/login', {}, { skipRefresh: true })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(session.getUser()).toEqual(user);
  });

  it('refreshes an expired token before the call, since the server answers public reads anonymously for it', async () => {
    session.setAccessToken(jwt(-60));
    session.setUser(user);
    const calls = fakeServer((c) => (isRefresh(c) ? ok({ accessToken: 'NEW', refreshToken: 'R' }) : ok({ video: 1 })));
    await Promise.all([api.get('videos/v1'), api.get('users/channel/ada')]);
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(calls.filter((c) => !isRefresh(c)).map((c) => c.auth)).toEqual(['Bearer NEW', 'Bearer NEW']);
  });

  it('sends a token that has not expired as it is', async () => {
    const token = jwt(600);
    session.setAccessToken(token);
    const calls = fakeServer(() => ok(null));
    await api.get('videos');
    expect(calls.map((c) => c.auth)).toEqual([`Bearer ${token}`]);
  });

  it('sends the call without a token when refreshing an expired one fails, and clears the session', async () => {
    session.setAccessToken(jwt(-60));
    session.setUser(user);
    const calls = fakeServer((c) => (isRefresh(c) ? fail(401, 'Invalid or expired refresh token') : ok({ data: [] })));
    await expect(api.get('videos')).resolves.toMatchObject({ data: { data: [] } });
    expect(calls.at(-1)).toMatchObject({ url: '/api/v1/videos', auth: null });
    expect(session.getUser()).toBeNull();
  });

  it('refreshAccessToken posts an empty body so the server uses the cookie', async () => {
    const calls = fakeServer(() => ok({ accessToken: 'NEW', refreshToken: 'R' }));
    await expect(refreshAccessToken({ silent: true })).resolves.toBe('NEW');
    expect(calls[0]).toMatchObject({ method: 'POST', body: '{}' });
  });

  it('turns a non-JSON error page into an ApiError with the status', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })));
    await expect(api.get('x')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
  });
});
