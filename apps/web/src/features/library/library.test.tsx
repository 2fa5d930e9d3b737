import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { ada, signInAs } from '@/test/fixtures.ts';

// Toasts and the session live in module stores: start every test without old ones.
beforeEach(() => {
  toast.remove();
  session.clear();
});

const page = (key: string, items: unknown[]) => ({ data: { [key]: items, page: 1, limit: 10, hasNextPage: false, nextCursor: null } });
const video = { _id: 'v1', title: 'Cats', description: '', thumbnail: null, duration: 65, views: 3, isPublished: true, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', owner: { _id: 'u-bob', userName: 'bob', fullName: 'Bob Stone', avatar: null } };
const playlist = (id: string, name: string) => ({ _id: id, name, description: '', noOfVideos: 1, videoId: 'v1', thumbnail: null, owner: { userName: 'ada', fullName: 'Ada' }, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', videoStatus: false });

function serve(loggedIn: boolean, over: Handler) {
  if (loggedIn) {
    signInAs();
  }
  return fakeApi((url, init) => over(url, init) ?? (url.pathname === '/api/v1/users/me' ? (loggedIn ? { data: { user: ada } } : { status: 401, message: 'Please login' }) : undefined));
}

describe('personal lists', () => {
  it.each([
    ['/subscriptions', 'subscriptions', 'Please login to view your subscriptions.'],
    ['/history', 'users/watch-history', 'Please login to view your watch history.'],
    ['/liked-videos', 'likes/video', 'Please login to view your liked videos.'],
  ])('%s answered 401 (a session that ended server-side) toasts the login message and goes home', async (path, api, message) => {
    // The real server answers with the same words: they must show once (the toast), not also as a page error.
    serve(true, (url) => (url.pathname === `/api/v1/${api}` ? { status: 401, message } : undefined));
    const { router } = renderApp(path);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getAllByText(message)).toHaveLength(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it.each([
    ['/subscriptions', 'subscriptions', 'subscriptions', 'No videos found', 'No videos found of any Subscribed channels.'],
    ['/history', 'users/watch-history', 'watchHistory', 'No Watch History', "You haven't watched any video."],
    ['/liked-videos', 'likes/video', 'likedVideos', 'No videos found', "You haven't liked any video."],
  ])('%s shows its empty state word for word', async (path, api, key, title, text) => {
    serve(true, (url) => (url.pathname === `/api/v1/${api}` ? page(key, []) : undefined));
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('liked videos reads the video of each entry', async () => {
    serve(true, (url) => (url.pathname === '/api/v1/likes/video' ? page('likedVideos', [{ _id: 'l1', video }]) : undefined));
    renderApp('/liked-videos');
    expect(await screen.findByRole('link', { name: 'Cats' })).toHaveAttribute('href', '/video/v1');
  });

  it('subscriptions goes home on any failure', async () => {
    serve(true, (url) => (url.pathname === '/api/v1/subscriptions' ? { status: 500, message: 'Boom' } : undefined));
    const { router } = renderApp('/subscriptions');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('personal pages without an account (issue #17)', () => {
  it.each([
    ['/subscriptions', 'Subscriptions', "Don't miss new videos", 'subscriptions'],
    ['/history', 'Watch history', 'Keep track of what you watch', 'users/watch-history'],
    ['/liked-videos', 'Liked videos', 'Enjoy your favourite videos', 'likes/video'],
    ['/playlists', 'Playlists', 'Save videos for later', 'playlists'],
  ])('%s shows its heading and a sign-in prompt, stays put and asks the server nothing', async (path, heading, prompt, api) => {
    const calls = serve(false, () => undefined);
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    const section = screen.getByRole('region', { name: prompt });
    expect(within(section).getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(router.state.location.pathname).toBe(path);
    expect(screen.queryByText(/Please login/)).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === `/api/v1/${api}`)).toBe(false);
  });
});

describe('a stored user whose session the server ended', () => {
  it.each([
    ['/history', 'Please login to view your watch history.'],
    ['/playlists', 'Please login to view your playlists.'],
  ])('%s toasts the login message and goes home, not the sign-in prompt', async (path, message) => {
    session.setUser({ userId: ada._id, userName: 'ada', fullName: ada.fullName, email: ada.email, avatar: null, cover: null });
    // No access token, and the refresh cookie is gone: every call answers 401.
    fakeApi(() => ({ status: 401, message: 'Unauthorized request' }));
    const { router } = renderApp(path);
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});

describe('my playlists', () => {

  it('shows the empty state', async () => {
    serve(true, (url) => (url.pathname === '/api/v1/playlists' ? page('playlists', []) : undefined));
    renderApp('/playlists');
    expect(await screen.findByRole('heading', { name: 'No playlists found' })).toBeInTheDocument();
    expect(screen.getByText("You haven't created any playlist.")).toBeInTheDocument();
  });

  it('renames (empty name not sent) and deletes after confirmation', async () => {
    let lists = [playlist('p1', 'Mix'), playlist('p2', 'Old')];
    const calls = serve(true, (url, init) => {
      if (url.pathname === '/api/v1/playlists') return page('playlists', lists);
      if (url.pathname === '/api/v1/playlists/p1' && init.method === 'PATCH') {
        lists = [playlist('p1', 'Best'), lists[1]!];
        return { data: null, message: 'Playlist updated successfully' };
      }
      if (url.pathname === '/api/v1/playlists/p2' && init.method === 'DELETE') {
        lists = lists.filter((p) => p._id !== 'p2');
        return { data: null, message: 'Playlist deleted successfully' };
      }
      return undefined;
    });
    renderApp('/playlists');
    expect(await screen.findByRole('link', { name: /^Play all: Mix, / })).toHaveAttribute('href', '/video/v1?listId=p1');
    await userEvent.click(screen.getByRole('button', { name: 'Options for Mix' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const name = screen.getByRole('textbox', { name: 'Playlist name' });
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    await userEvent.type(name, ' Best ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Playlist updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ name: 'Best' });
    expect(await screen.findByRole('heading', { name: 'Best' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Options for Old' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete playlist' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Playlist deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Old' })).toBeNull());
  });
});
