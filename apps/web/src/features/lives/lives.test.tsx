import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Live } from '@glimpse/contract';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { livePollMs } from './api/lives-api.ts';

/**
 * The chat streams the page opens, on top of fakeApi's answers: each records its URL and login,
 * and the test writes Server-Sent Events into its body.
 */
function fakeChatStreams() {
  const opened: { url: string; authorization: string | null; send: (text: string) => void }[] = [];
  const answer = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      if (!input.endsWith('/chat/stream')) return answer(input, init);
      let stream!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (stream = c) });
      const send = (text: string) => stream.enqueue(new TextEncoder().encode(text));
      opened.push({ url: input, authorization: new Headers(init.headers).get('authorization'), send });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    }),
  );
  return opened;
}

beforeEach(() => {
  toast.remove();
  session.clear();
});

const chatComment = (content: string, id: string) => ({
  _id: id,
  content,
  owner: { _id: 'u2', userName: 'bob', fullName: 'Bob', avatar: null },
  replies: 0,
  likes: 0,
  dislikes: 0,
  likeStatus: 0,
  entityType: 'live',
  entityId: ID,
  parentId: null,
  state: 'published',
  pinned: false,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
  takedown: null,
});

const ID = '0190a000-0000-7000-8000-000000000001';
const base: Live = {
  _id: ID,
  ownerId: 'u1',
  title: 'Morning show',
  description: 'Coffee and code',
  privacy: 'public',
  permanent: false,
  saveReplay: true,
  latencyMode: 'normal',
  state: 'waiting',
  startedAt: null,
  endedAt: null,
  hlsUrl: null,
  viewers: null,
  replayVideoId: null,
  thumbnail: null,
  createdAt: '2026-12-01T10:00:00.000Z',
};
const THUMB = `/api/v1/lives/${ID}/thumbnail/pub/thumb-${ID}.png`;

describe('live watch page', () => {
  it('waits for the stream, then starts playing by itself with the LIVE badge', async () => {
    let answer: Live = base;
    fakeApi((url) => (url.pathname === `/api/v1/lives/${ID}` ? { data: answer } : undefined));
    renderApp(`/live/${ID}`);
    expect(await screen.findByText('Waiting for the stream to start')).toBeInTheDocument();
    expect(screen.queryByText('LIVE')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Morning show' })).toBeInTheDocument();

    answer = { ...base, state: 'live', hlsUrl: `/api/v1/lives/${ID}/hls/s1/master.m3u8`, viewers: 12 };
    // The page asks again every 3 s while it waits.
    const video = await screen.findByLabelText('Morning show', { selector: 'video' }, { timeout: 5_000 });
    expect(screen.getByLabelText('On air now')).toHaveTextContent('LIVE');
    expect(screen.getByText('12 watching')).toBeInTheDocument();
    expect(video).toHaveProperty('autoplay', true);
    expect(screen.getByRole('button', { name: 'Jump to live' })).toBeInTheDocument();
  });

  it('shows the live chat, and a comment announced on its stream appears without a reload', async () => {
    let chat = [chatComment('First!', 'c1')];
    fakeApi((url) => {
      if (url.pathname === `/api/v1/lives/${ID}`) return { data: { ...base, state: 'live', hlsUrl: `/api/v1/lives/${ID}/hls/s1/master.m3u8` } };
      if (url.pathname === `/api/v1/comments/live/${ID}`) return { data: { comments: chat, hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    const streams = fakeChatStreams();
    renderApp(`/live/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Live chat' })).toBeInTheDocument();
    expect(await screen.findByText('First!')).toBeInTheDocument();
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]).toMatchObject({ url: `/api/v1/lives/${ID}/chat/stream`, authorization: null });
    chat = [chatComment('Hello from Bob', 'c2'), ...chat];
    streams[0]!.send('retry: 3000\n\nevent: comment\ndata: {}\n\n');
    expect(await screen.findByText('Hello from Bob')).toBeInTheDocument();
    expect(screen.getAllByText('First!')).toHaveLength(1);
  });

  it("opens a private live's chat stream with its owner's login (the server answers no one else)", async () => {
    session.setUser({ userId: 'u1', userName: 'ada', fullName: 'Ada', email: 'ada@example.com', avatar: null, cover: null });
    session.setAccessToken('owner-token');
    fakeApi((url) => {
      if (url.pathname === `/api/v1/lives/${ID}`) return { data: { ...base, privacy: 'private', state: 'live', hlsUrl: `/api/v1/lives/${ID}/hls/s1/k-key/master.m3u8` } };
      if (url.pathname === `/api/v1/comments/live/${ID}`) return { data: { comments: [], hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    const streams = fakeChatStreams();
    renderApp(`/live/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Live chat' })).toBeInTheDocument();
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.authorization).toBe('Bearer owner-token');
  });

  it('asks again after the end until the replay is named, for 10 minutes at most', () => {
    const ended = { ...base, state: 'ended' as const, endedAt: '2026-12-01T10:00:00.000Z' };
    const at = (minutes: number) => Date.parse('2026-12-01T10:00:00.000Z') + minutes * 60_000;
    expect(livePollMs({ ...base, state: 'waiting' })).toBe(3_000);
    expect(livePollMs({ ...base, state: 'live' })).toBe(10_000);
    expect(livePollMs(ended, at(1))).toBe(10_000);
    expect(livePollMs(ended, at(11))).toBe(false);
    expect(livePollMs({ ...ended, replayVideoId: 'v9' }, at(1))).toBe(false);
    expect(livePollMs({ ...ended, saveReplay: false }, at(1))).toBe(false);
  });

  it('says the live has ended and links its replay', async () => {
    fakeApi((url) => (url.pathname === `/api/v1/lives/${ID}` ? { data: { ...base, state: 'ended', replayVideoId: 'v9' } } : undefined));
    renderApp(`/live/${ID}`);
    expect(await screen.findByText('The live has ended')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Watch the replay' })).toHaveAttribute('href', '/video/v9');
  });

  it("shows the live's own thumbnail as its poster while it waits", async () => {
    fakeApi((url) => (url.pathname === `/api/v1/lives/${ID}` ? { data: { ...base, thumbnail: THUMB } } : undefined));
    const { container } = renderApp(`/live/${ID}`);
    expect(await screen.findByText('Waiting for the stream to start')).toBeInTheDocument();
    expect(container.querySelector(`img[src="${THUMB}"]`)).not.toBeNull();
  });

  it('a live it may not see is not found', async () => {
    fakeApi(() => ({ status: 404, message: 'Live not found' }));
    renderApp(`/live/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Live not found' })).toBeInTheDocument();
  });
});

describe('my lives', () => {
  it('creates a low-latency live and shows the server URL and the key once', async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: { _id: 'u1', userName: 'ada', fullName: 'Ada', email: 'ada@x.io', avatar: null, coverImage: null, role: 'user' } } };
      if (url.pathname === '/api/v1/lives' && init.method === 'POST') {
        return { status: 201, message: 'Live created successfully', data: { live: { ...base, title: 'Launch' }, rtmpUrl: 'rtmp://glimpse.test:1935/live', streamKey: `${ID}.secret` } };
      }
      if (url.pathname === '/api/v1/lives') return { data: [] };
      return undefined;
    });
    renderApp('/lives');
    expect(await screen.findByText('You have no lives yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Create a live' });
    await userEvent.type(within(form).getByLabelText('Title'), 'Launch');
    await userEvent.selectOptions(within(form).getByLabelText('Who can watch'), 'unlisted');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Permanent: the same key for every session' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: /^Low latency/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create a live' }));
    const panel = await screen.findByRole('region', { name: 'Your stream settings' });
    expect(within(panel).getByLabelText('Server')).toHaveValue('rtmp://glimpse.test:1935/live');
    expect(within(panel).getByLabelText('Stream key')).toHaveValue(`${ID}.secret`);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ title: 'Launch', description: '', privacy: 'unlisted', permanent: true, saveReplay: true, latencyMode: 'low' });
  });

  it('creates a live with a thumbnail (refusing a file that is not a png or jpeg, as the upload form does), then removes it', async () => {
    session.setAccessToken('T');
    let mine: Live[] = [];
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: { _id: 'u1', userName: 'ada', fullName: 'Ada', email: 'ada@x.io', avatar: null, coverImage: null, role: 'user' } } };
      if (url.pathname === '/api/v1/lives' && init.method === 'POST') {
        mine = [{ ...base, title: 'Launch' }];
        return { status: 201, message: 'Live created successfully', data: { live: mine[0], rtmpUrl: 'rtmp://glimpse.test:1935/live', streamKey: `${ID}.secret` } };
      }
      if (url.pathname === `/api/v1/lives/${ID}/thumbnail`) {
        mine = [{ ...mine[0]!, thumbnail: init.method === 'PUT' ? THUMB : null }];
        return { message: 'ok', data: mine[0] };
      }
      if (url.pathname === '/api/v1/lives') return { data: mine };
      return undefined;
    });
    renderApp('/lives');
    const form = await screen.findByRole('form', { name: 'Create a live' });
    const picker = within(form).getByLabelText('Thumbnail (png or jpeg)');
    await userEvent.upload(picker, new File(['GIF89a'], 'a.gif', { type: 'image/gif' }), { applyAccept: false });
    expect(within(form).getByRole('alert')).toHaveTextContent('Only png and jpeg images are allowed');
    await userEvent.upload(picker, new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' }));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Title'), 'Launch');
    await userEvent.click(within(form).getByRole('button', { name: 'Create a live' }));
    const shown = await screen.findByRole('img', { name: 'Thumbnail of Launch' });
    expect(shown).toHaveAttribute('src', THUMB);
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toBeInstanceOf(FormData);
    expect(((put!.body as FormData).get('image') as File).name).toBe('a.png');
    await userEvent.click(screen.getByRole('button', { name: 'Remove thumbnail' }));
    await vi.waitFor(() => expect(screen.queryByRole('img', { name: 'Thumbnail of Launch' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === `/api/v1/lives/${ID}/thumbnail`)).toBe(true);
  });

  it('renews a stream key only once the creator confirms it, then shows the new key', async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: { _id: 'u1', userName: 'ada', fullName: 'Ada', email: 'ada@x.io', avatar: null, coverImage: null, role: 'user' } } };
      if (url.pathname === `/api/v1/lives/${ID}/key` && init.method === 'POST') {
        return { message: 'Stream key regenerated successfully', data: { live: base, rtmpUrl: 'rtmp://glimpse.test:1935/live', streamKey: `${ID}.renewed` } };
      }
      if (url.pathname === '/api/v1/lives') return { data: [base] };
      return undefined;
    });
    renderApp('/lives');
    await userEvent.click(await screen.findByRole('button', { name: 'New stream key' }));
    let dialog = screen.getByRole('dialog', { name: 'Get a new stream key?' });
    expect(dialog).toHaveTextContent('The current key stops working');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const renewals = () => calls.filter((c) => c.url.pathname === `/api/v1/lives/${ID}/key`);
    expect(renewals()).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'New stream key' }));
    dialog = screen.getByRole('dialog', { name: 'Get a new stream key?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Get a new key' }));
    const panel = await screen.findByRole('region', { name: 'Your stream settings' });
    expect(within(panel).getByLabelText('Stream key')).toHaveValue(`${ID}.renewed`);
    expect(await screen.findByText('Stream key regenerated successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(renewals()).toHaveLength(1);
  });

  it('asks a visitor to sign in', async () => {
    fakeApi(() => undefined);
    renderApp('/lives');
    expect(await screen.findByText('Sign in to create a live and get your stream key.')).toBeInTheDocument();
  });
});
