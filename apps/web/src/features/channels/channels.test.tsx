import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tweet } from '@/components/media/types.ts';
import { truncate } from '@/components/ui/expandable-text.tsx';
import { session } from '@/lib/session.ts';
import { makeChannel, visibleIntersectionObserver } from '@/test/fixtures.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { filterSubscribed } from './api/channel-api.ts';

// Toasts and the session live in module stores: start every test without old ones.
beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };
const channel = { ...ada, subscriberCount: 3, subscribers: 3, totalSubscribers: 3, videoCount: 2, isSubscribed: false };
const page = (key: string, items: unknown[]) => ({ data: { [key]: items, page: 1, limit: 10, hasNextPage: false, nextCursor: null } });
const tweet = (id: string, content: string, createdAt = '2024-01-01T00:00:00.000Z'): Tweet => ({
  _id: id,
  content,
  image: null,
  state: 'published',
  likes: 1,
  dislikes: 0,
  comments: 2,
  likeStatus: 0,
  owner: { _id: ada._id, userName: 'ada', fullName: 'Ada Lovelace', avatar: null },
  createdAt,
  updatedAt: createdAt,
});

function loginAs(user: typeof ada | null) {
  if (!user) return;
  session.setAccessToken('T');
  session.setUser({ userId: user._id, userName: user.userName, fullName: user.fullName, email: user.email, avatar: null, cover: null });
}

/** The channel 'ada' and its lists; `over` answers first. */
function serve(viewer: typeof ada | null, over: Handler = () => undefined) {
  loginAs(viewer);
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return viewer ? { data: { user: viewer } } : { status: 401, message: 'Please login' };
    if (p === 'users/channel/ada') return { data: channel };
    if (p === 'users/video/ada') return page('videos', []);
    if (p === 'playlists') return page('playlists', []);
    if (p === `tweets/user/${ada._id}`) return page('tweets', []);
    if (p === `subscriptions/channel/${ada._id}`) return page('subscribedChannels', []);
    return undefined;
  });
}

const bob = { _id: 'u-bob', userName: 'bob', fullName: 'Bob Stone', email: 'bob@x.io', avatar: null, coverImage: null };

describe('public channel', () => {
  it('shows the header and Subscribe for a visitor; the toggle flips the button and the count', async () => {
    const calls = serve(bob, (url) =>
      url.pathname === `/api/v1/subscriptions/toggle/${ada._id}` ? { data: { isSubscribed: true, subscriberCount: 4, subscribers: 4, totalSubscribers: 4 } } : undefined,
    );
    renderApp('/channel/@ada/videos');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('@ada')).toBeInTheDocument();
    expect(screen.getByText('3 subscribers · 2 videos')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('button', { name: 'Subscribed' })).toBeInTheDocument();
    expect(screen.getByText('4 subscribers · 2 videos')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    const tabs = within(screen.getByRole('navigation', { name: 'Channel' })).getAllByRole('link');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('href')])).toEqual([
      ['Videos', '/channel/@ada/videos'],
      ['Playlists', '/channel/@ada/playlists'],
      ['Tweets', '/channel/@ada/tweets'],
      ['Subscribed', '/channel/@ada/subscribed'],
    ]);
  });

  it('links the RSS feed, and announces RSS and Atom in the head only while the channel is shown', async () => {
    serve(null);
    const { router } = renderApp('/channel/@ada/videos');
    const feed = `${window.location.origin}/api/v1/feeds/channels/ada`;
    expect(await screen.findByRole('link', { name: 'RSS' })).toHaveAttribute('href', feed);
    const announced = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"]')].map((l) => [l.type, l.title, l.href]);
    expect(announced()).toEqual([
      ['application/rss+xml', 'Ada Lovelace (RSS)', feed],
      ['application/atom+xml', 'Ada Lovelace (Atom)', `${feed}?format=atom`],
    ]);
    await router.navigate('/channel/@ada/tweets');
    expect(await screen.findByRole('link', { name: 'RSS' })).toBeInTheDocument();
    expect(announced()).toHaveLength(2);
    await router.navigate('/');
    await waitFor(() => expect(announced()).toEqual([]));
  });

  it('shows Dashboard instead of Subscribe on one’s own channel', async () => {
    serve(ada);
    renderApp('/channel/@ada/videos');
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/user/@ada/dashboard');
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });

  it.each([
    ['videos', 'No videos uploaded', 'This page has yet to upload a video.'],
    ['playlists', 'No playlist created', 'There are no playlist created on this channel.'],
    ['tweets', 'No tweets', 'This channel has yet to make a Tweet.'],
    ['subscribed', 'No people subscribed', 'This channel has yet to subscribe a new channel.'],
  ])('shows the empty %s tab word for word', async (tab, title, text) => {
    serve(null);
    renderApp(`/channel/@ada/${tab}`);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('goes home when the channel fails to load', async () => {
    serve(null, (url) => (url.pathname === '/api/v1/users/channel/nobody' ? { status: 404, message: 'Channel not found' } : undefined));
    const { router } = renderApp('/channel/@nobody/videos');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('subscribed search (spec §5)', () => {
  const list = [
    { channel: makeChannel({ _id: '1', userName: 'ada', fullName: 'Ada Lovelace', subscriberCount: 1200 }), subscribedAt: '2024-01-02T00:00:00.000Z' },
    { channel: makeChannel({ _id: '2', userName: 'bob', fullName: 'Bob Stone', subscriberCount: 1 }), subscribedAt: '2024-01-01T00:00:00.000Z' },
  ];

  it('matches the typed text, case-sensitively, inside the lower-cased full name', () => {
    expect(filterSubscribed(list, '')).toHaveLength(2);
    expect(filterSubscribed(list, 'ada').map((s) => s.channel._id)).toEqual(['1']);
    expect(filterSubscribed(list, 'Ada')).toEqual([]);
    expect(filterSubscribed(list, 'o')).toHaveLength(2);
  });

  it('applies the filter only when the search button is clicked', async () => {
    serve(null, (url) => (url.pathname === `/api/v1/subscriptions/channel/${ada._id}` ? page('subscribedChannels', list) : undefined));
    renderApp('/channel/@ada/subscribed');
    const rows = await screen.findByRole('list', { name: 'Subscribed channels' });
    expect(within(rows).getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/channel/@ada/videos', '/channel/@bob/videos']);
    expect(within(rows).getByText('1.20K subscribers')).toBeInTheDocument();
    const box = screen.getByRole('searchbox', { name: 'Search subscribed channels' });
    await userEvent.type(box, 'bob');
    expect(within(rows).getAllByRole('link')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Search channels' }));
    expect(within(screen.getByRole('list', { name: 'Subscribed channels' })).getAllByRole('link')).toHaveLength(1);
    await userEvent.clear(box);
    await userEvent.type(box, 'Bob');
    await userEvent.click(screen.getByRole('button', { name: 'Search channels' }));
    expect(await screen.findByRole('heading', { name: 'No channels found' })).toBeInTheDocument();
  });
});

describe('tweets', () => {
  const long = 'x'.repeat(95) + ' tail of a long tweet';

  it('shows the newest tweet on top though the server answers each page oldest first (spec §7: shown reversed)', async () => {
    vi.stubGlobal('IntersectionObserver', visibleIntersectionObserver());
    const at = (day: number) => `2024-01-0${day}T00:00:00.000Z`;
    const calls = serve(null, (url) => {
      if (url.pathname !== `/api/v1/tweets/user/${ada._id}`) return undefined;
      // Pages run from the newest back; each is oldest first.
      return url.searchParams.get('cursor') === 'older'
        ? page('tweets', [tweet('t1', 'day one', at(1)), tweet('t2', 'day two', at(2))])
        : { data: { tweets: [tweet('t3', 'day three', at(3)), tweet('t4', 'day four', at(4))], page: 1, limit: 10, hasNextPage: true, nextCursor: 'older' } };
    });
    renderApp('/channel/@ada/tweets');
    await screen.findByText('day one');
    expect(screen.getAllByRole('article').map((a) => within(a).getByText(/^day /).textContent)).toEqual(['day four', 'day three', 'day two', 'day one']);
    expect(calls.filter((c) => c.url.pathname.endsWith(`/tweets/user/${ada._id}`))).toHaveLength(2);
  });

  it('cuts text over 100 characters with ... and toggles Read more / Show less', async () => {
    expect(truncate('a'.repeat(100), 100)).toBeNull();
    expect(truncate('a'.repeat(101), 100)).toBe(`${'a'.repeat(100)}...`);
    serve(null, (url) => (url.pathname === `/api/v1/tweets/user/${ada._id}` ? page('tweets', [tweet('t1', long)]) : undefined));
    renderApp('/channel/@ada/tweets');
    expect(await screen.findByText(`${long.slice(0, 100)}...`, { exact: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Read more' }));
    expect(screen.getByText(long, { exact: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(screen.getByRole('button', { name: 'Read more' })).toBeInTheDocument();
    // Visitors get no composer and no menus; the card links to the tweet page.
    expect(screen.queryByRole('form', { name: 'New tweet' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Tweet options' })).toBeNull();
    expect(screen.getByRole('link', { name: '2 comments, open tweet' })).toHaveAttribute('href', '/tweet/t1');
  });

  it('posts a trimmed tweet to the top with zero counts; blank is not sent', async () => {
    const calls = serve(ada, (url, init) => {
      if (url.pathname === `/api/v1/tweets/user/${ada._id}`) return page('tweets', [tweet('t1', 'older')]);
      if (url.pathname === '/api/v1/tweets' && init.method === 'POST') {
        const content = (init.body as FormData).get('content') as string;
        return { status: 201, data: { _id: 't2', content, image: null, createdAt: '2024-02-01T00:00:00.000Z', updatedAt: '2024-02-01T00:00:00.000Z' } };
      }
      return undefined;
    });
    renderApp('/channel/@ada/tweets');
    const text = await screen.findByRole('textbox', { name: 'Tweet text' });
    await userEvent.type(text, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await userEvent.type(text, ' Hello world  ');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    const first = screen.getAllByRole('article')[0]!;
    expect(within(first).getByText('Hello world')).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Like, 0' })).toBeInTheDocument();
    expect((calls.find((c) => c.method === 'POST')!.body as FormData).get('content')).toBe('Hello world');
    expect(text).toHaveValue('');
  });

  it('keeps one menu open at a time, edits in place and deletes after confirmation', async () => {
    const calls = serve(ada, (url, init) => {
      // Oldest first, as the server answers (spec §7); the page shows the newest on top.
      if (url.pathname === `/api/v1/tweets/user/${ada._id}`) return page('tweets', [tweet('t2', 'second'), tweet('t1', 'first')]);
      if (url.pathname === '/api/v1/tweets/t1' && init.method === 'PATCH') return { data: null, message: 'Tweet updated successfully' };
      if (url.pathname === '/api/v1/tweets/t2' && init.method === 'DELETE') return { data: { deletedCount: 0 }, message: 'Tweet deleted successfully' };
      return undefined;
    });
    renderApp('/channel/@ada/tweets');
    const toggles = await screen.findAllByRole('button', { name: 'Tweet options' });
    await userEvent.click(toggles[0]!);
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    await userEvent.click(toggles[1]!);
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    await userEvent.click(toggles[1]!);
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(toggles[0]!);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const edit = screen.getByRole('textbox', { name: 'Edit tweet' });
    await userEvent.clear(edit);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    await userEvent.type(edit, 'first, edited');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('first, edited')).toBeInTheDocument();
    expect(await screen.findByText('Tweet updated successfully')).toBeInTheDocument();

    await userEvent.click(screen.getAllByRole('button', { name: 'Tweet options' })[1]!);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete tweet' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('second')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname)).toEqual(['/api/v1/tweets/t2']);
  });

  it('like and dislike follow the server answer', async () => {
    serve(bob, (url) => {
      if (url.pathname === `/api/v1/tweets/user/${ada._id}`) return page('tweets', [tweet('t1', 'hi')]);
      if (url.pathname === '/api/v1/likes/tweet/t1/like') return { data: { likes: 2, dislikes: 0, likeStatus: 1 } };
      return undefined;
    });
    renderApp('/channel/@ada/tweets');
    await userEvent.click(await screen.findByRole('button', { name: 'Like, 1' }));
    expect(await screen.findByRole('button', { name: 'Like, 2' })).toHaveAttribute('aria-pressed', 'true');
  });
});
