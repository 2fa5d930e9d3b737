import { screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@glimpse/contract';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { ADMIN_ONLY_MESSAGE } from './routes/admin.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };

/** GET users/me answers Ada with this role (or 401 when logged out); lists are empty. */
function serve(role: Role | null) {
  if (role) session.setAccessToken('T');
  fakeApi((url) => {
    if (url.pathname === '/api/v1/users/me') return role ? { data: { user: { ...ada, role } } } : { status: 401, message: 'Please login' };
    return { data: { data: [], hasNextPage: false, nextCursor: null } };
  });
}

const menuLinks = async () => {
  const nav = await screen.findByRole('navigation', { name: 'Main menu' });
  return within(nav);
};

describe('Administration entry of the side menu', () => {
  it.each<Role>(['moderator', 'admin'])('is shown to a %s and links to /admin', async (role) => {
    serve(role);
    renderApp('/help');
    const menu = await menuLinks();
    expect(await menu.findByRole('link', { name: 'Administration' })).toHaveAttribute('href', '/admin');
  });

  it.each<Role | null>(['user', null])('is not shown to %s', async (role) => {
    serve(role);
    renderApp('/help');
    const menu = await menuLinks();
    // Wait for the current-user call to have answered before asserting the absence.
    await waitFor(() => expect(menu.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', role ? '/user/@ada/dashboard' : '/login'));
    expect(menu.queryByRole('link', { name: 'Administration' })).not.toBeInTheDocument();
  });
});

describe('/admin', () => {
  it('shows staff the administration page with their role and an empty state', async () => {
    serve('moderator');
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    expect(screen.getByText('moderator')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Moderation tools are coming' })).toBeInTheDocument();
  });

  it.each<Role | null>(['user', null])('sends %s home with a toast', async (role) => {
    serve(role);
    const { router } = renderApp('/admin');
    expect(await screen.findByText(ADMIN_ONLY_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Administration' })).not.toBeInTheDocument();
  });

  it('trusts the role from users/me over a stored one claiming staff', async () => {
    session.setUser({ userId: ada._id, userName: 'ada', fullName: 'Ada', email: 'ada@x.io', avatar: null, cover: null, role: 'admin' });
    serve('user');
    const { router } = renderApp('/admin');
    expect(await screen.findByText(ADMIN_ONLY_MESSAGE)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
