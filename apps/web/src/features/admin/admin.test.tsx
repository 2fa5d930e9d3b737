import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@glimpse/contract';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { ADMIN_ONLY_MESSAGE } from './routes/admin.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };

const overview = {
  users: { total: 120, newThisWeek: 7, pendingApproval: 2, suspended: 1 },
  videos: { total: 40, ready: 36, processing: 3, failed: 1 },
  storage: { bytes: 4_800_000_000 },
  moderation: { openReports: 5, appeals: 1 },
  transcodes: {
    queued: 2,
    running: 1,
    failed: [{ videoId: 'v-broken', title: 'Broken upload', ownerUserName: 'bob', reason: 'The file has no video stream', failedAt: '2026-11-20T10:00:00Z' }],
  },
};
const bob = {
  _id: 'u-bob', userName: 'bob', fullName: 'Bob Builder', email: 'bob@x.io', role: 'user', state: 'suspended', stateReason: 'Spam',
  suspendedUntil: null, emailVerified: true, videos: 3, createdAt: '2026-10-01T10:00:00Z',
};

/** GET users/me answers Ada with this role (or 401 when logged out); the admin calls answer fixtures; lists are empty. */
function serve(role: Role | null) {
  if (role) session.setAccessToken('T');
  return fakeApi((url, init) => {
    if (url.pathname === '/api/v1/users/me') return role ? { data: { user: { ...ada, role } } } : { status: 401, message: 'Please login' };
    if (url.pathname === '/api/v1/admin/overview') return { data: overview };
    if (url.pathname === '/api/v1/admin/transcodes/v-broken/retry') return { data: {}, message: 'The video is queued for transcoding again' };
    if (url.pathname === '/api/v1/admin/users') return { data: { users: [bob], hasNextPage: false, nextCursor: null } };
    if (url.pathname === '/api/v1/admin/users/u-bob' && init.method === 'DELETE') return { data: null, message: 'Account deleted' };
    if (url.pathname === '/api/v1/moderation/users/u-bob/unsuspend') return { data: null, message: 'Suspension lifted' };
    if (url.pathname === '/api/v1/admin/users/u-bob/role') return { data: { user: { _id: 'u-bob', role: 'moderator' } }, message: 'Role changed successfully' };
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
    // The rail's short label and the full menu's label (CSS shows one of them; jsdom has no CSS).
    expect(await menu.findByRole('link', { name: 'AdminAdministration' })).toHaveAttribute('href', '/admin');
  });

  it.each<Role | null>(['user', null])('is not shown to %s', async (role) => {
    serve(role);
    renderApp('/help');
    const menu = await menuLinks();
    // Wait for the current-user call to have answered before asserting the absence.
    await waitFor(() => expect(menu.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', role ? '/user/@ada/dashboard' : '/login'));
    expect(menu.queryByRole('link', { name: /Admin/ })).not.toBeInTheDocument();
  });
});

describe('/admin', () => {
  it('shows staff the overview: accounts, videos, the transcode queue, and a Retry for each failed video', async () => {
    const calls = serve('moderator');
    renderApp('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    const users = await screen.findByRole('region', { name: 'Users' });
    expect(within(users).getByText('Pending approval').nextSibling).toHaveTextContent('2');
    expect(within(screen.getByRole('region', { name: 'Videos' })).getByText('Storage used').nextSibling).toHaveTextContent(/GB/);
    expect(within(screen.getByRole('region', { name: 'Moderation' })).getByText('Reported items').nextSibling).toHaveTextContent('5');
    expect(within(screen.getByRole('region', { name: 'Transcode queue' })).getByText('Queued').nextSibling).toHaveTextContent('2');
    const failed = screen.getByRole('list', { name: 'Failed transcodes' });
    expect(within(failed).getByText('The file has no video stream')).toBeInTheDocument();
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry Broken upload' }));
    expect(await screen.findByText('The video is queued for transcoding again')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/v1/admin/transcodes/v-broken/retry')).toBe(true);
  });

  it('shows moderators no Settings tab and no role picker; admins both', async () => {
    serve('moderator');
    renderApp('/admin/users');
    const tabs = await screen.findByRole('navigation', { name: 'Administration sections' });
    expect(within(tabs).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
    const accounts = await screen.findByRole('list', { name: 'Accounts' });
    expect(within(accounts).getByText('Suspended: Spam')).toBeInTheDocument();
    expect(within(accounts).queryByRole('combobox', { name: 'Role of @bob' })).not.toBeInTheDocument();
    expect(within(accounts).queryByRole('button', { name: 'Delete account @bob' })).not.toBeInTheDocument();
  });

  it('shows the tabs and the users list in French, counting videos with a plural', async () => {
    serve('admin');
    await setLocale('fr');
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Sections de l\'administration' });
    expect(within(tabs).getAllByRole('link').map((l) => l.textContent)).toContain('Journal de modération');
    const accounts = await screen.findByRole('list', { name: 'Comptes' });
    expect(within(accounts).getByText(/· 3 vidéos$/)).toBeInTheDocument();
    expect(within(accounts).getByText('Suspendu : Spam')).toBeInTheDocument();
    expect(within(accounts).getByRole('combobox', { name: 'Rôle de @bob' })).toHaveDisplayValue('utilisateur');
  });

  it('lets an admin change a role from the users list', async () => {
    const calls = serve('admin');
    renderApp('/admin/users');
    expect(await within(await screen.findByRole('navigation', { name: 'Administration sections' })).findByRole('link', { name: 'Settings' })).toBeInTheDocument();
    fireEvent.change(await screen.findByRole('combobox', { name: 'Role of @bob' }), { target: { value: 'moderator' } });
    expect(await screen.findByText('Role changed successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'moderator' });
  });

  it('lets an admin delete an account after a confirmation; moderators have no such button', async () => {
    const calls = serve('admin');
    renderApp('/admin/users');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete account @bob' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete account' });
    expect(within(dialog).getByText(/Delete @bob \(bob@x\.io\)\?/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.url.pathname).toBe('/api/v1/admin/users/u-bob');
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
