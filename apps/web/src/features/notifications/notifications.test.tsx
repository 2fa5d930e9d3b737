import type { Notification } from '@glimpse/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { restoreSession } from '@/lib/me.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { ada, signInAs } from '@/test/fixtures.ts';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const bob = { _id: 'u-bob', userName: 'bob', fullName: 'Bob Stone', avatar: null };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function note(id: string, over: Partial<Notification> = {}): Notification {
  return { _id: id, type: 'newVideo', actor: bob, subject: { videoId: 'v1', videoTitle: 'Cats' }, read: false, createdAt: minutesAgo(2), ...over };
}

const list = (items: Notification[], unread: number, more = false) => ({
  data: { notifications: items, page: 1, limit: 10, hasNextPage: more, nextCursor: more ? 'c2' : null, unread },
});

/** An SSE body the test writes to; it errors like a real one when the page aborts the call. */
function sseBody(signal: AbortSignal | null | undefined) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  signal?.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
  const bytes = new TextEncoder();
  return { body, send: (text: string) => controller.enqueue(bytes.encode(text)) };
}

/**
 * Logged in as Ada with `handler` answering the API; the stream (held open, silent unless the test
 * writes to it) is faked here since fakeApi answers JSON only.
 */
function serve(handler: Handler) {
  signInAs();
  const calls = fakeApi((url, init) => handler(url, init) ?? (url.pathname === '/api/v1/users/me' ? { data: { user: ada } } : undefined));
  const json = globalThis.fetch;
  const streams: { send: (text: string) => void; signal: AbortSignal | null | undefined; headers: HeadersInit | undefined }[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    if (!input.endsWith('/notifications/stream')) return json(input, init);
    const stream = sseBody(init.signal);
    streams.push({ send: stream.send, signal: init.signal, headers: init.headers });
    return Promise.resolve(new Response(stream.body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
  });
  return { calls, streams };
}

const countIs = (unread: number): Handler => (url) => (url.pathname === '/api/v1/notifications/unread-count' ? { data: { unread } } : undefined);

describe('the bell', () => {
  it.each([
    [0, 'Notifications', null],
    [3, 'Notifications, 3 unread', '3'],
    [99, 'Notifications, 99 unread', '99'],
    [120, 'Notifications, 120 unread', '99+'],
  ])('with %i unread is named "%s" with badge %s', async (unread, name, badge) => {
    serve(countIs(unread));
    renderApp('/help');
    const bell = await screen.findByRole('button', { name });
    expect(bell.textContent).toBe(badge ?? '');
  });

  it('is not shown to visitors', async () => {
    fakeApi((url) => (url.pathname === '/api/v1/users/me' ? { status: 401, message: 'Please login' } : undefined));
    renderApp('/help');
    expect(await screen.findByRole('link', { name: 'Log In' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
  });

  it('follows the stream, with events split across reads, and refreshes the open panel', async () => {
    let listed = 0;
    const { streams } = serve((url) => {
      if (url.pathname === '/api/v1/notifications') {
        listed += 1;
        return list(listed === 1 ? [] : [note('n1')], listed === 1 ? 0 : 1);
      }
      return countIs(0)(url, {});
    });
    renderApp('/help');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(new Headers(streams[0]!.headers).get('Authorization')).toBe('Bearer T');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(panel).findByText('No notifications yet')).toBeInTheDocument();

    streams[0]!.send('retry: 3000\n\nevent: unr');
    streams[0]!.send('ead\ndata: {"unread"');
    streams[0]!.send(':1}\n\n: ping\n\n');
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toHaveTextContent('1');
    expect(await within(panel).findByRole('link', { name: /Bob Stone uploaded "Cats"/ })).toBeInTheDocument();
  });

  it('opens the stream with the token of the start-up refresh', async () => {
    const { streams } = serve((url) => (url.pathname === '/api/v1/auths/refresh-token' ? { data: { accessToken: 'FRESH' } } : countIs(0)(url, {})));
    session.setAccessToken(null);
    // As main.tsx does at start-up: the stream waits for that refresh instead of starting its own.
    restoreSession();
    renderApp('/help');
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(new Headers(streams[0]!.headers).get('Authorization')).toBe('Bearer FRESH');
  });

  it('stops the stream on logout', async () => {
    const { streams } = serve((url) => (url.pathname === '/api/v1/auths/logout' ? { data: {} } : countIs(0)(url, {})));
    renderApp('/help');
    await waitFor(() => expect(streams).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(streams[0]!.signal?.aborted).toBe(true));
    expect(streams).toHaveLength(1);
  });

  it('lists the latest, marks all read, closes on Escape with focus back on the bell', async () => {
    let unread = 2;
    const { calls } = serve((url, init) => {
      if (url.pathname === '/api/v1/notifications') {
        const read = unread === 0;
        return list([note('n1', { read }), note('n2', { type: 'newSubscriber', subject: {}, read, createdAt: minutesAgo(90) }), note('n3', { type: 'videoProcessed', actor: null, subject: { videoId: 'v9', videoTitle: 'Dogs', outcome: 'ready' }, read: true })], unread);
      }
      if (url.pathname === '/api/v1/notifications/read-all' && init.method === 'POST') {
        unread = 0;
        return { data: { updated: 2, unread: 0 } };
      }
      return countIs(unread)(url, init);
    });
    renderApp('/help');
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = await within(panel).findAllByRole('link', { name: /ago$/ });
    expect(items.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Unread: Bob Stone uploaded "Cats"2 minutes ago', '/video/v1'],
      ['Unread: Bob Stone subscribed to your channel1 hour ago', '/channel/@bob/videos'],
      ['"Dogs" is ready to watch2 minutes ago', '/video/v9'],
    ]);
    expect(calls.find((c) => c.url.pathname === '/api/v1/notifications')?.url.searchParams.get('limit')).toBe('8');
    expect(within(panel).getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/notifications');
    expect(within(panel).getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/user/@ada/notifications');

    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toHaveTextContent('');
    await waitFor(() => expect(within(panel).queryAllByText(/^Unread:/)).toHaveLength(0));
    expect(within(panel).queryByRole('button', { name: 'Mark all as read' })).toBeNull();

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull();
    expect(bell).toHaveFocus();
    expect(bell).toHaveAttribute('aria-expanded', 'false');
  });

  it('a click on a notification marks it read and opens what it is about', async () => {
    const { calls } = serve((url, init) => {
      if (url.pathname === '/api/v1/notifications') return list([note('n1', { type: 'comment', subject: { videoId: 'v1', videoTitle: 'Cats', excerpt: 'Lovely' } })], 1);
      if (url.pathname === '/api/v1/notifications/n1/read' && init.method === 'PATCH') return { data: { unread: 0 } };
      return countIs(1)(url, init);
    });
    const { router } = renderApp('/help');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await userEvent.click(await screen.findByRole('link', { name: /Bob Stone commented on "Cats": Lovely/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/video/v1'));
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Notifications' })).toHaveTextContent('');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.url.pathname)).toEqual(['/api/v1/notifications/n1/read']);
  });
});

describe('the notifications page', () => {
  it('answered 401 toasts the login message and goes home', async () => {
    fakeApi((url) => (url.pathname === '/api/v1/notifications' ? { status: 401, message: 'Please login to see your notifications' } : url.pathname === '/api/v1/users/me' ? { status: 401, message: 'Please login' } : undefined));
    const { router } = renderApp('/notifications');
    expect(await screen.findByText('Please login to see your notifications')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows an empty state per filter and keeps the filter in the URL', async () => {
    const { calls } = serve((url) => (url.pathname === '/api/v1/notifications' ? list([], 0) : countIs(0)(url, {})));
    const { router } = renderApp('/notifications');
    expect(await screen.findByRole('heading', { name: 'No notifications yet' })).toBeInTheDocument();
    const filter = screen.getByRole('group', { name: 'Show' });
    expect(within(filter).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/user/@ada/notifications');

    await userEvent.click(within(filter).getByRole('button', { name: 'Unread' }));
    expect(await screen.findByRole('heading', { name: "You're all caught up" })).toBeInTheDocument();
    expect(within(filter).getByRole('button', { name: 'Unread' })).toHaveAttribute('aria-pressed', 'true');
    expect(router.state.location.search).toBe('?filter=unread');
    const lists = calls.filter((c) => c.url.pathname === '/api/v1/notifications');
    expect(lists.map((c) => c.url.searchParams.get('unread'))).toEqual([null, 'true']);
  });

  it('marks one read and all read, and pages with the cursor', async () => {
    let unread = 2;
    const read = new Set<string>();
    const { calls } = serve((url, init) => {
      if (url.pathname === '/api/v1/notifications') {
        const first = !url.searchParams.get('cursor');
        const ids = first ? ['n1', 'n2'] : ['n3'];
        return list(ids.map((id) => note(id, { read: read.has(id) || id === 'n3', subject: { videoId: id, videoTitle: `Video ${id}` } })), unread, first);
      }
      if (url.pathname === '/api/v1/notifications/n1/read') {
        read.add('n1');
        unread = 1;
        return { data: { unread } };
      }
      if (url.pathname === '/api/v1/notifications/read-all') {
        read.add('n2');
        unread = 0;
        return { data: { updated: 1, unread } };
      }
      return countIs(unread)(url, init);
    });
    vi.stubGlobal('IntersectionObserver', (await import('@/test/fixtures.ts')).visibleIntersectionObserver());
    renderApp('/notifications');
    const page = await screen.findByRole('list', { name: 'Notifications' });
    expect(await within(page).findByRole('link', { name: /Video n3/ })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/v1/notifications').map((c) => c.url.searchParams.get('cursor'))).toEqual([null, 'c2']);
    expect(within(page).getAllByRole('button', { name: 'Mark as read' })).toHaveLength(2);

    await userEvent.click(within(page).getAllByRole('button', { name: 'Mark as read' })[0]!);
    await waitFor(() => expect(within(page).getAllByRole('button', { name: 'Mark as read' })).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(within(page).queryAllByRole('button', { name: 'Mark as read' })).toHaveLength(0));
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveTextContent('');
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});
