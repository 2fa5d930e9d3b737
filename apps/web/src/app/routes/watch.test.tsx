import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session.ts';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';

const me = { userId: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, cover: null };
const comment = (id: string, over: object = {}) => ({
  _id: id,
  content: `comment ${id}`,
  owner: { _id: 'o1', userName: 'ada', fullName: 'Ada Lovelace', avatar: null },
  replies: 0,
  likes: 0,
  dislikes: 0,
  likeStatus: 0,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

/** The fake API of these tests; `server()` installs it. */
function fakeServer(): Handler {
  const long = 'x'.repeat(150);
  let playlists = [{ _id: 'p1', name: 'Favourites', noOfVideos: 0, videoId: null, thumbnail: null, owner: { userName: 'me', fullName: 'Me' }, videoStatus: false, createdAt: '', updatedAt: '' }];
  return (url, init) => {
    const p = url.pathname.replace('/api/v1/', '');
    const method = init.method ?? 'GET';
    if (p === 'users/me') return { data: { user: { _id: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, coverImage: null } } };
    if (p === 'videos/v1') return { data: { video: makeVideo(1, { description: long, noOfComments: 3, subscribers: 10 }) } };
    if (p === 'videos/v1/similar') return { data: { videos: [makeVideo(2, { title: 'Similar one' })] } };
    if (p === 'comments/video/v1' && method === 'GET') return { data: { comments: [comment('c1', { replies: 1 }), comment('c2', { owner: { _id: 'me', userName: 'me', fullName: 'Me Myself', avatar: null } })], hasNextPage: false, nextCursor: null } };
    if (p === 'comments/video/v1/c1') return { data: { comments: [comment('r1', { content: 'a reply' })], hasNextPage: false, nextCursor: null } };
    if (p === 'comments/c2' && method === 'DELETE') return { data: { _id: 'c2', deletedCount: 2 }, message: 'Comment deleted successfully' };
    if (p === 'comments/video/v1' && method === 'POST') return { status: 201, data: { _id: 'new1', content: JSON.parse(init.body as string).content } };
    if (p === 'likes/video/v1/like') return { data: { likes: 4, dislikes: 1, likeStatus: 1 } };
    if (p === 'subscriptions/toggle/o1') return { data: { isSubscribed: true, subscriberCount: 11, subscribers: 11, totalSubscribers: 11 } };
    if (p === 'playlists' && method === 'GET') return { data: { playlists, hasNextPage: false, nextCursor: null } };
    if (p === 'playlists/p1/v1' && method === 'POST') return { data: { playlist: {} } };
    if (p === 'playlists' && method === 'POST') {
      const created = { ...playlists[0]!, _id: 'p2', name: 'Road trip', videoStatus: true };
      playlists = [...playlists, created];
      return { status: 201, data: { playlist: created } };
    }
    if (p === 'videos/v1/views') return { data: { counted: true, views: 2500 } };
    return undefined;
  };
}
const server = () => fakeApi(fakeServer());

describe('watch page', () => {
  it('shows the video, description cut at 100 characters, like, subscribe and similar videos', async () => {
    session.setUser(me);
    const calls = server();
    renderApp('/video/v1');
    expect(await screen.findByRole('heading', { name: 'Video 1', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(`${'x'.repeat(100)}...`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Read More' }));
    expect(screen.getByText('x'.repeat(150))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Read Less' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /^Like, / }));
    // The name carries the count it shows (WCAG 2.5.3).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Like, 4' })).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByRole('button', { name: 'Like, 4' })).toHaveTextContent('4');

    expect(screen.getByText('10 subscribers')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByRole('button', { name: 'Subscribed' })).toBeInTheDocument();
    expect(screen.getByText('11 subscribers')).toBeInTheDocument();

    expect(await screen.findByRole('link', { name: 'Similar one' })).toHaveAttribute('href', '/video/v2');

    // A view is counted once playback starts, and only once.
    const player = screen.getByLabelText('Video 1', { selector: 'video' });
    fireEvent.playing(player);
    fireEvent.playing(player);
    await waitFor(() => expect(calls.filter((c) => c.url.pathname.endsWith('/videos/v1/views'))).toHaveLength(1));
    // The page shows the server's new count.
    expect(await screen.findByText(/2\.50K views/)).toBeInTheDocument();
  });

  it('saves to a playlist by checkbox and to a new playlist', async () => {
    session.setUser(me);
    const calls = server();
    renderApp('/video/v1');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save to playlist' });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'Favourites' }));
    expect(await screen.findByText('Saved to Favourites successfully')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Favourites' })).toBeChecked();
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/playlists/p1/v1'))).toBe(true);

    await userEvent.type(within(dialog).getByLabelText('New playlist name'), 'Road trip');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Saved to Road trip successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/v1/playlists')!.body).toEqual({ name: 'Road trip', videoId: 'v1' });
    expect(await within(dialog).findByRole('checkbox', { name: 'Road trip' })).toBeChecked();
  });

  it('ticks a playlist checkbox at once and unticks it when the server refuses', async () => {
    session.setUser(me);
    let answer!: (a: { status: number; message: string }) => void;
    const base = fakeServer();
    const calls = fakeApi((url, init) => (url.pathname.endsWith('/playlists/p1/v1') ? new Promise((resolve) => (answer = resolve)) : base(url, init)));
    renderApp('/video/v1');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save to playlist' });
    const box = await within(dialog).findByRole('checkbox', { name: 'Favourites' });
    await userEvent.click(box);
    // Still waiting for the server: already ticked, and locked against a second click.
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/playlists/p1/v1'))).toBe(true));
    expect(box).toBeChecked();
    expect(box).toBeDisabled();
    answer({ status: 404, message: 'Playlist not found' });
    expect(await screen.findByText('Playlist not found')).toBeInTheDocument();
    expect(box).not.toBeChecked();
    expect(box).toBeEnabled();
  });

  it('threads comments: replies collapsed, author-only menu, delete reduces the count by deletedCount, new comment inserted', async () => {
    session.setUser(me);
    server();
    renderApp('/video/v1');
    expect(await screen.findByRole('heading', { name: '3 Comments' })).toBeInTheDocument();
    expect(await screen.findByText('comment c1')).toBeInTheDocument();
    expect(screen.queryByText('a reply')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '1 reply' }));
    expect(await screen.findByText('a reply')).toBeInTheDocument();

    // Only my comment has the Edit/Delete menu; the others' offer Report (ADR 012).
    const menus = screen.getAllByRole('button', { name: 'Comment actions' });
    expect(menus).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'More comment actions' })).toHaveLength(2);
    await userEvent.click(menus[0]!);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await userEvent.click(menus[0]!);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.click(menus[0]!);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete comment' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: '1 Comment' })).toBeInTheDocument();
    expect(screen.queryByText('comment c2')).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Add a comment' }), '  hello there  ');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByText('hello there')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2 Comments' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');
  });

  it('on one column (phones) folds the comments into a teaser before the similar videos; it opens the box and the list', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query === '(max-width: 1023.98px)', media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
    );
    session.setUser(me);
    server();
    renderApp('/video/v1');
    const heading = await screen.findByRole('heading', { name: '3 Comments' });
    const teaser = heading.closest('section')!;
    // The first comment is the teaser's preview; no box, no list, no second comment yet.
    expect(await within(teaser).findByText('comment c1')).toBeInTheDocument();
    expect(screen.queryByText('comment c2')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Add a comment' })).not.toBeInTheDocument();
    const similar = await screen.findByRole('heading', { name: 'Similar videos' });
    expect(heading.compareDocumentPosition(similar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const open = within(teaser).getByRole('button', { name: 'Show comments' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toBeInTheDocument();
    expect(screen.getByText('comment c2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide comments' }));
    expect(screen.queryByRole('textbox', { name: 'Add a comment' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show comments' })).toBeInTheDocument();
  });

  it('the Comment button is disabled while the box is blank (it would send nothing)', async () => {
    session.setUser(me);
    server();
    renderApp('/video/v1');
    const box = await screen.findByRole('textbox', { name: 'Add a comment' });
    const submit = screen.getByRole('button', { name: 'Comment' });
    expect(submit).toBeDisabled();
    await userEvent.type(box, '   ');
    expect(submit).toBeDisabled();
    await userEvent.type(box, 'hi');
    expect(submit).toBeEnabled();
  });

  describe('from a playlist', () => {
    const withPlaylist = () => {
      const base = fakeServer();
      const playlist = { _id: 'p9', name: 'Road trip', noOfVideos: 2, videoId: 'v1', thumbnail: null, owner: { userName: 'me', fullName: 'Me' }, createdAt: '', updatedAt: '', videos: [makeVideo(1), makeVideo(2)] };
      fakeApi((url, init) => (url.pathname === '/api/v1/playlists/p9' ? { data: { playlist } } : base(url, init)));
    };
    const wideScreen = (wide: boolean) =>
      vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ matches: wide && query === '(min-width: 1024px)', media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList);

    it('puts the panel under the video on one column, before the comments; collapsed it names the next video', async () => {
      wideScreen(false);
      withPlaylist();
      renderApp('/video/v1?listId=p9');
      const panel = await screen.findByRole('region', { name: 'Playlist Road trip' });
      const comments = screen.getByRole('heading', { name: /Comments$/ });
      expect(panel.compareDocumentPosition(comments) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(screen.getByRole('complementary', { name: 'Up next' })).not.toContainElement(panel);
      expect(within(panel).getByText(/1\/2/)).toBeInTheDocument();
      await userEvent.click(within(panel).getByRole('button', { name: 'Collapse playlist' }));
      expect(within(panel).getByText('Video 2')).toBeInTheDocument();
    });

    it('puts the panel beside the player on two columns', async () => {
      wideScreen(true);
      withPlaylist();
      renderApp('/video/v1?listId=p9');
      const panel = await screen.findByRole('region', { name: 'Playlist Road trip' });
      expect(screen.getByRole('complementary', { name: 'Up next' })).toContainElement(panel);
    });
  });

  it('goes home when the video fails to load', async () => {
    fakeApi((url) => (url.pathname.endsWith('/users/me') ? { status: 401, message: 'x' } : { status: 404, message: 'Video not found' }));
    const { router } = renderApp('/video/zz');
    const warn = (await import('vitest')).vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    warn.mockRestore();
  });

  it('says a video the moderators removed was removed, and stays on its page; from a playlist it goes to that page', async () => {
    fakeApi((url) => (url.pathname.endsWith('/users/me') ? { status: 401, message: 'x' } : url.pathname === '/api/v1/videos/gone' ? { status: 410, message: 'This video was removed by the moderators' } : undefined));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { router } = renderApp('/video/gone?listId=p1');
    expect(await screen.findByRole('heading', { level: 1, name: 'This video was removed by the moderators.' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/video/gone');
    expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Video removed - Glimpse'));
  });
});

describe('timestamps in the description and comments', () => {
  it('are links to the time that, clicked, seek the player and focus its seek bar; beyond the video they stay text', async () => {
    const base = fakeServer();
    fakeApi((url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'videos/v1') return { data: { video: makeVideo(1, { description: 'Jump to 1:23, skip 9:59', duration: 125, noOfComments: 1 }) } };
      if (p === 'comments/video/v1') return { data: { comments: [comment('c1', { content: 'The best bit is at 0:42 <b>really</b>' })], hasNextPage: false, nextCursor: null } };
      return base(url, init);
    });
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    // jsdom has no layout, nor scrollIntoView.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      renderApp('/video/v1');
      const inDescription = await screen.findByRole('link', { name: 'Play from 1:23' });
      expect(inDescription).toHaveAttribute('href', '/video/v1?t=83');
      expect(screen.queryByRole('link', { name: 'Play from 9:59' })).toBeNull();
      expect(screen.getByText(/skip 9:59/)).toBeInTheDocument();
      const video = document.querySelector('video')!;
      await userEvent.click(inDescription);
      expect(video.currentTime).toBe(83);
      expect(play).toHaveBeenCalled();
      expect(screen.getByRole('slider', { name: 'Seek' })).toHaveFocus();
      expect(scrolled).toEqual([screen.getByRole('region', { name: 'Video player' })]);

      const inComment = await screen.findByRole('link', { name: 'Play from 0:42' });
      expect(inComment).toHaveAttribute('href', '/video/v1?t=42');
      expect(inComment.closest('p')).toHaveTextContent('The best bit is at 0:42 <b>really</b>');
      await userEvent.click(inComment);
      expect(video.currentTime).toBe(42);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });
});

describe('watch page analytics', () => {
  it('reports the seconds played with the source the link gave and the token, at once on pause', async () => {
    session.setUser(me);
    session.setAccessToken('T');
    const calls = server();
    const { router } = renderApp('/help');
    await router.navigate('/video/v1', { state: { source: 'search' } });
    await screen.findByRole('heading', { name: 'Video 1', level: 1 });
    const video = document.querySelector('video')!;
    const state = { time: 0, paused: false };
    Object.defineProperties(video, { currentTime: { get: () => state.time, set: () => undefined }, paused: { get: () => state.paused } });
    fireEvent.play(video);
    for (const t of [0, 0.5, 1.2, 2.1, 3.4]) {
      state.time = t;
      fireEvent.timeUpdate(video);
    }
    state.paused = true;
    fireEvent.pause(video);
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/v1/analytics/heartbeat')).toHaveLength(1));
    const beat = calls.find((c) => c.url.pathname === '/api/v1/analytics/heartbeat')!;
    expect(beat.body).toMatchObject({ videoId: 'v1', source: 'search', positions: [0, 1, 2, 3] });
    const init = vi.mocked(fetch).mock.calls.find(([u]) => String(u).endsWith('/analytics/heartbeat'))![1]!;
    expect(init).toMatchObject({ method: 'POST', keepalive: true, headers: expect.objectContaining({ Authorization: 'Bearer T' }) });
  });
});
