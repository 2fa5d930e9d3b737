import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { isRemoteHandle, type FederatedComment } from '@/lib/federation.ts';
import { session } from '@/lib/session.ts';
import { ada, makeVideo, owner, signInAs } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

beforeEach(() => session.clear());

const channel = (following: 'none' | 'pending' | 'accepted') => ({
  _id: '0190a0a0-0000-7000-8000-000000000001',
  handle: '@alice@a.example',
  name: 'Alice A',
  summary: '',
  host: 'a.example',
  url: 'https://a.example/channel/@alice',
  avatar: null,
  following,
});
const video = {
  _id: '0190a0a0-0000-7000-8000-000000000002',
  title: 'Hello fediverse',
  description: '',
  duration: 61,
  thumbnail: null,
  hlsUrl: 'https://a.example/media/videos/x/master.m3u8',
  originalUrl: 'https://a.example/video/x',
  fromHost: 'a.example',
  channel: { _id: channel('none')._id, handle: '@alice@a.example', name: 'Alice A', host: 'a.example' },
  publishedAt: '2026-01-01T00:00:00Z',
};
const PLAYER = 'Video player';
const me = (url: URL) => (url.pathname === '/api/v1/users/me' ? { data: { user: ada } } : undefined);

describe('isRemoteHandle', () => {
  it('takes @name@host, name@host with a port, and addresses; not plain words or e-mail-less text', () => {
    for (const s of ['@alice@a.example', 'alice@a.example', '@bob@127.0.0.1:4110', 'https://a.example/ap/channels/1']) expect(isRemoteHandle(s), s).toBe(true);
    for (const s of ['cats', '@alice', 'alice@localhost', 'two words@a.example']) expect(isRemoteHandle(s), s).toBe(false);
  });
});

describe('following a channel of another server', () => {
  it('from the search box: follow, then its page says the request is pending', async () => {
    signInAs();
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/federation/follows' && init.method === 'POST') return { data: channel('pending') };
      if (url.pathname === `/api/v1/federation/channels/${channel('none')._id}`) return { data: { channel: channel('pending'), videos: [] } };
      if (url.pathname === '/api/v1/videos') return { data: { data: [], hasNextPage: false, nextCursor: null } };
      return me(url);
    });
    const { router } = renderApp('/search?searchText=%40alice%40a.example');
    const card = await screen.findByRole('region', { name: 'A channel on another server' });
    expect(within(card).getByText('Follow @alice@a.example to see its new videos in your subscriptions.')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Follow' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/remote/${channel('none')._id}`));
    expect(calls.find((c) => c.url.pathname === '/api/v1/federation/follows')?.body).toEqual({ handle: '@alice@a.example' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Alice A' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow requested' })).toBeInTheDocument();
    expect(screen.getByText('from a.example')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No videos yet' })).toBeInTheDocument();
  });

  it('a visitor is asked to log in instead', async () => {
    fakeApi((url) => (url.pathname === '/api/v1/videos' ? { data: { data: [], hasNextPage: false, nextCursor: null } } : undefined));
    renderApp('/search?searchText=%40alice%40a.example');
    const card = await screen.findByRole('region', { name: 'A channel on another server' });
    expect(within(card).getByText('Log in to follow channels of other servers.')).toBeInTheDocument();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('a remote video plays here in our player from its origin, says where it comes from and links the original; its description reads as text', async () => {
    const described = { ...video, description: '<p>First &amp; best</p><p>Second <a href="https://a.example">line</a></p>' };
    fakeApi((url) => (url.pathname === `/api/v1/federation/videos/${video._id}` ? { data: { video: described } } : undefined));
    renderApp(`/remote/video/${video._id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello fediverse' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: PLAYER })).toBeInTheDocument();
    expect(screen.getByText('from a.example')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Watch on a.example' })).toHaveAttribute('href', 'https://a.example/video/x');
    expect(screen.getByRole('link', { name: 'Alice A' })).toHaveAttribute('href', `/remote/${channel('none')._id}`);
    const description = screen.getByText(/First & best/);
    expect(description.textContent).toBe('First & best\n\nSecond line');
  });

  it('on a remote video, a user comments (sent to its server) and sees the thread as text', async () => {
    signInAs();
    let thread: FederatedComment[] = [
      { _id: 'c1', uri: 'https://a.example/ap/comments/c1', inReplyTo: 'https://a.example/ap/videos/x', content: '<p>First <b>from A</b></p>', held: false, author: { name: 'Alice A', handle: '@alice@a.example', host: 'a.example' }, publishedAt: '2026-01-01T00:00:00Z' },
    ];
    const calls = fakeApi((url, init) => {
      if (url.pathname === `/api/v1/federation/videos/${video._id}`) return { data: { video } };
      if (url.pathname === '/api/v1/federation/comments') return { data: { comments: thread } };
      if (url.pathname === `/api/v1/federation/videos/${video._id}/comments` && init.method === 'POST') {
        thread = [...thread, { ...thread[0]!, _id: 'c2', content: '<p>Hello from here</p>', author: { name: 'Ada', handle: '@ada', host: null } }];
        return { status: 201, data: { _id: 'c2' } };
      }
      return me(url);
    });
    renderApp(`/remote/video/${video._id}`);
    const section = await screen.findByRole('region', { name: 'Comments' });
    expect(await within(section).findByText('First from A')).toBeInTheDocument();
    await userEvent.type(within(section).getByLabelText('Add a comment (sent to its server)'), 'Hello from here');
    await userEvent.click(within(section).getByRole('button', { name: 'Send' }));
    expect(await within(section).findByText('Hello from here')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ content: 'Hello from here' });
  });

  it('a user reports a remote video: the report goes to the federation route, which forwards it to its server', async () => {
    signInAs();
    const calls = fakeApi((url, init) => {
      if (url.pathname === `/api/v1/federation/videos/${video._id}`) return { data: { video } };
      if (url.pathname === '/api/v1/federation/comments') return { data: { comments: [] } };
      if (url.pathname === '/api/v1/federation/reports' && init.method === 'POST') return { status: 201, data: { object: 'https://a.example/ap/videos/x' }, message: 'Report sent' };
      return me(url);
    });
    renderApp(`/remote/video/${video._id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'More video actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report video' });
    expect(within(dialog).getByText('It is on another server: your report goes to its moderators, without your name.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(calls.find((c) => c.url.pathname === '/api/v1/federation/reports')?.body).toEqual({ targetKind: 'video', targetId: video._id, reason: 'spam' }));
  });

  it("a user reports a remote account's comment in the thread (to its server); their own comment has no Report", async () => {
    signInAs();
    const thread: FederatedComment[] = [
      { _id: 'c1', uri: 'https://a.example/ap/comments/c1', inReplyTo: 'https://a.example/ap/videos/x', content: '<p>Rude</p>', held: false, author: { name: 'Alice A', handle: '@alice@a.example', host: 'a.example' }, publishedAt: '2026-01-01T00:00:00Z' },
      { _id: 'c2', uri: 'https://here/ap/comments/c2', inReplyTo: 'https://a.example/ap/comments/c1', content: '<p>Mine</p>', held: false, author: { name: 'Ada', handle: '@ada', host: null }, publishedAt: '2026-01-01T00:00:00Z' },
    ];
    const calls = fakeApi((url, init) => {
      if (url.pathname === `/api/v1/federation/videos/${video._id}`) return { data: { video } };
      if (url.pathname === '/api/v1/federation/comments') return { data: { comments: thread } };
      if (url.pathname === '/api/v1/federation/reports' && init.method === 'POST') return { status: 201, data: { object: thread[0]!.uri }, message: 'Report sent' };
      return me(url);
    });
    renderApp(`/remote/video/${video._id}`);
    const section = await screen.findByRole('region', { name: 'Comments' });
    const [theirs, mine] = await within(section).findAllByRole('listitem');
    expect(within(mine!).queryByRole('button', { name: 'Report' })).toBeNull();
    // Only the channel's owner blocks, on their own video.
    expect(within(theirs!).queryByRole('button', { name: 'Block @alice@a.example' })).toBeNull();
    await userEvent.click(within(theirs!).getByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report comment' });
    expect(within(dialog).getByText('It is on another server: your report goes to its moderators, without your name.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Harassment' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(calls.find((c) => c.url.pathname === '/api/v1/federation/reports')?.body).toEqual({ targetKind: 'comment', targetId: 'c1', reason: 'harassment' }));
  });

  it("on their own video, the channel's owner blocks a remote account from its comment", async () => {
    session.setUser({ userId: owner._id, userName: owner.userName, fullName: owner.fullName, email: 'ada@x.io', avatar: null, cover: null });
    const local = makeVideo(1);
    const remoteComment: FederatedComment = { _id: 'c1', uri: 'https://b.example/ap/comments/c1', inReplyTo: `https://here/ap/videos/${local._id}`, content: '<p>Spam</p>', held: false, author: { name: 'Bob B', handle: '@bob@b.example', host: 'b.example' }, publishedAt: '2026-01-01T00:00:00Z' };
    const calls = fakeApi((url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === `videos/${local._id}`) return { data: { video: local } };
      if (p === `videos/${local._id}/similar`) return { data: { videos: [] } };
      if (p === `comments/video/${local._id}`) return { data: { comments: [], hasNextPage: false, nextCursor: null } };
      if (p === 'federation/comments') return { data: { comments: [remoteComment] } };
      if (p === 'federation/channel-blocks' && init.method === 'POST')
        return { status: 201, data: { actorId: 'a1', handle: '@bob@b.example', name: 'Bob B', blockedAt: '2026-01-01T00:00:00Z' }, message: 'Account blocked' };
      return undefined;
    });
    renderApp(`/video/${local._id}`);
    const section = await screen.findByRole('region', { name: 'Comments from other servers' });
    await userEvent.click(await within(section).findByRole('button', { name: 'Block @bob@b.example' }));
    expect(await screen.findByText('@bob@b.example is blocked: their new comments on your videos are not kept')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/v1/federation/channel-blocks')?.body).toEqual({ handle: '@bob@b.example' });
  });

  it("the Subscriptions page lists the followed remote channels' videos, from their host", async () => {
    signInAs();
    fakeApi((url) => {
      if (url.pathname === '/api/v1/subscriptions') return { data: { subscriptions: [], page: 1, limit: 10, hasNextPage: false, nextCursor: null } };
      if (url.pathname === '/api/v1/federation/feed') return { data: { videos: [video], page: 1, limit: 24 } };
      return me(url);
    });
    renderApp('/subscriptions');
    const section = await screen.findByRole('list', { name: 'From other servers' });
    expect(within(section).getByRole('link', { name: 'Hello fediverse' })).toHaveAttribute('href', `/remote/video/${video._id}`);
    expect(within(section).getByRole('link', { name: 'Alice A' })).toHaveAttribute('href', `/remote/${channel('none')._id}`);
    expect(within(section).getByText('from a.example')).toBeInTheDocument();
  });
});
