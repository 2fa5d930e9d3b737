import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { restoreSession } from '@/lib/me.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

const anonymous = () => fakeApi((url) => (url.pathname === '/api/v1/users/me' ? { status: 401, message: 'Please login' } : { data: { data: [], hasNextPage: false, nextCursor: null } }));

describe('shell', () => {
  it.each(['/no/such/page', '/channel/@ada', '/channel/@ada/nope', '/user/@ada', '/user/@ada/x', '/channel/ada/videos'])(
    'shows the not-available page at %s',
    async (path) => {
      anonymous();
      renderApp(path);
      expect(await screen.findByRole('heading', { name: "This page isn't available. Sorry about that." })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to home' })).toHaveAttribute('href', '/');
    },
  );

  it('lists the side menu entries of the spec in two groups, then About', async () => {
    anonymous();
    renderApp('/help');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const names = within(nav).getAllByRole('link').map((l) => l.textContent);
    expect(names).toEqual(['Home', 'Subscriptions', 'Your Channel', 'Playlists', 'History', 'Liked videos', 'Help', 'Settings', 'About']);
    expect(within(nav).getAllByRole('list')).toHaveLength(2);
  });

  it("after a route change moves the focus to the new page's main heading (not on the first load)", async () => {
    anonymous();
    renderApp('/help');
    await screen.findByRole('heading', { name: 'Account' });
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Home' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Trending videos' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('shows the help page with its four FAQ sections', async () => {
    anonymous();
    renderApp('/help');
    for (const name of ['Account', 'Video management', 'Watching', 'Troubleshooting'])
      expect(await screen.findByRole('heading', { name })).toBeInTheDocument();
  });

  it('searches with the trimmed text and a timestamp; blank text is ignored', async () => {
    anonymous();
    const { router } = renderApp('/help');
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    await userEvent.type(box, '   {Enter}');
    expect(router.state.location.pathname).toBe('/help');
    await userEvent.clear(box);
    await userEvent.type(box, '  cats  {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('searchText')).toBe('cats');
    expect(Number(params.get('t'))).toBeGreaterThan(0);
  });

  it('asks no current-user call of a visitor with neither a stored user nor a token (it could only say 401)', async () => {
    const calls = anonymous();
    renderApp('/help');
    expect(await screen.findByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(calls.map((c) => c.url.pathname)).not.toContain('/api/v1/users/me');
  });

  it('shows Log In when the start-up refresh is refused, and drops the stale stored user', async () => {
    session.setUser({ userId: 'u', userName: 'ada', fullName: 'Ada', email: 'a@x.io', avatar: null, cover: null });
    fakeApi((url) =>
      url.pathname === '/api/v1/auths/refresh-token'
        ? { status: 401, message: 'Invalid or expired refresh token' }
        : url.pathname === '/api/v1/users/me'
          ? { status: 401, message: 'Please login' }
          : { data: { data: [], hasNextPage: false, nextCursor: null } },
    );
    restoreSession();
    renderApp('/help');
    expect(await screen.findByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(session.getUser()).toBeNull();
  });

  it('shows the avatar link and Log Out when logged in; Log Out clears the session', async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me')
        return { data: { user: { _id: 'u', userName: 'ada', fullName: 'Ada Lovelace', email: 'a@x.io', avatar: null, coverImage: null } } };
      if (url.pathname === '/api/v1/auths/logout') return { data: null, message: 'Logged out' };
      return undefined;
    });
    renderApp('/help');
    expect(await screen.findByRole('link', { name: 'Your profile' })).toHaveAttribute('href', '/user/@ada/personal-information');
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Your Channel' })).toHaveAttribute('href', '/channel/@ada/videos');
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/user/@ada/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByRole('link', { name: 'Log In' })).toBeInTheDocument();
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/v1/auths/logout')).toBe(true);
    expect(session.getUser()).toBeNull();
    expect(session.getAccessToken()).toBeNull();
  });

  it('toggles the overlay menu from the top bar', async () => {
    anonymous();
    renderApp('/help');
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('navigation', { name: 'Main menu' })).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.getAllByRole('navigation', { name: 'Main menu' })).toHaveLength(1);
    await userEvent.click(toggle);
    await userEvent.keyboard('{Escape}');
    expect(screen.getAllByRole('navigation', { name: 'Main menu' })).toHaveLength(1);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
