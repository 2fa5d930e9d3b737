import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { DASHBOARD_LOGIN_MESSAGE, guardMessage, OWN_CHANNEL_MESSAGE } from './components/guard.ts';

// Toasts and the session live in module stores: start every test without old ones.
beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };
const stored = { userId: ada._id, userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, cover: null };
const channel = { ...ada, subscriberCount: 0, subscribers: 0, totalSubscribers: 0, videoCount: 0, isSubscribed: false };

function serve(loggedIn: boolean, over: Handler = () => undefined) {
  if (loggedIn) {
    session.setAccessToken('T');
    session.setUser(stored);
  }
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return loggedIn ? { data: { user: session.getUser() ? { ...ada, ...session.getUser(), _id: ada._id } : ada } } : { status: 401, message: 'Please login' };
    if (p.startsWith('users/channel/')) return { data: { ...channel, userName: p.split('/')[2] } };
    if (p.startsWith('dashboard/')) return { data: p.endsWith('stats') ? { totalViews: 0, totalSubscribers: 0, totalLikes: 0, totalComments: 0 } : { videos: [], hasNextPage: false, nextCursor: null } };
    return undefined;
  });
}

describe('own-channel guard (spec §2)', () => {
  it('chooses the message by stored user, handle and route', () => {
    expect(guardMessage(null, 'ada', true, false)).toBe(DASHBOARD_LOGIN_MESSAGE);
    expect(guardMessage(null, 'ada', false, false)).toBe(OWN_CHANNEL_MESSAGE);
    expect(guardMessage(stored, 'bob', true, false)).toBe(OWN_CHANNEL_MESSAGE);
    expect(guardMessage(stored, 'ada', false, false)).toBeNull();
    expect(guardMessage(stored, 'ada2', false, true)).toBeNull();
    expect(DASHBOARD_LOGIN_MESSAGE).toBe('Please login to view your channel.');
    expect(OWN_CHANNEL_MESSAGE).toBe('Please login to view your Channel.');
  });

  it.each([
    [false, '/user/@ada/dashboard', 'Please login to view your channel.'],
    [false, '/user/@ada/personal-information', 'Please login to view your Channel.'],
    [true, '/user/@bob/dashboard', 'Please login to view your Channel.'],
    [true, '/user/@bob/change-password', 'Please login to view your Channel.'],
  ])('logged in %s at %s: toasts and goes home', async (loggedIn, path, message) => {
    serve(loggedIn);
    const { router } = renderApp(path);
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('lets the owner in', async () => {
    serve(true);
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByText('Total Views')).toBeInTheDocument();
  });
});

describe('personal information', () => {
  it('sends nothing when the trimmed names are unchanged', async () => {
    const calls = serve(true);
    renderApp('/user/@ada/personal-information');
    const fullName = await screen.findByRole('textbox', { name: 'Full name' });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@x.io');
    await userEvent.type(fullName, '  ');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('shows the required-field messages once touched', async () => {
    serve(true);
    renderApp('/user/@ada/personal-information');
    const userName = await screen.findByRole('textbox', { name: 'User name' });
    await userEvent.clear(userName);
    await userEvent.tab();
    expect(await screen.findByText('Please enter your username')).toBeInTheDocument();
  });

  it('on 409 shows both toasts with the suggested name', async () => {
    serve(true, (url, init) =>
      url.pathname === '/api/v1/users/me' && init.method === 'PATCH'
        ? { status: 409, message: 'User name already exists', data: { availableUserName: 'bob42' } }
        : undefined,
    );
    renderApp('/user/@ada/personal-information');
    const userName = await screen.findByRole('textbox', { name: 'User name' });
    await userEvent.clear(userName);
    await userEvent.type(userName, 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('User name already exists')).toBeInTheDocument();
    expect(await screen.findByText("Available user name is 'bob42'")).toBeInTheDocument();
    expect(session.getUser()?.userName).toBe('ada');
  });

  it('saves a new name, updates the stored user and follows the new handle', async () => {
    let renamed = false;
    const calls = serve(true, (url, init) => {
      if (url.pathname === '/api/v1/users/me' && init.method === 'PATCH') {
        renamed = true;
        return { data: { user: { ...ada, userName: 'ada2', fullName: 'Ada King' } }, message: 'Account details updated successfully' };
      }
      // Like the server: the old handle names no channel any more.
      if (renamed && url.pathname === '/api/v1/users/channel/ada') return { status: 404, message: 'Channel not found' };
      return undefined;
    });
    const { router } = renderApp('/user/@ada/personal-information');
    const fullName = await screen.findByRole('textbox', { name: 'Full name' });
    await userEvent.clear(fullName);
    await userEvent.type(fullName, ' Ada King ');
    const userName = screen.getByRole('textbox', { name: 'User name' });
    await userEvent.clear(userName);
    await userEvent.type(userName, 'ada2');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ _id: 'u-ada', fullName: 'Ada King', userName: 'ada2' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/@ada2/personal-information'));
    await waitFor(() => expect(session.getUser()).toMatchObject({ userName: 'ada2', fullName: 'Ada King' }));
    expect(await screen.findByRole('textbox', { name: 'User name' })).toHaveValue('ada2');
    expect(screen.queryByText('Please login to view your Channel.')).toBeNull();
    // The old handle's channel is not asked for again: its 404 would send the page home.
    const patchAt = calls.findIndex((c) => c.method === 'PATCH');
    expect(calls.slice(patchAt).filter((c) => c.url.pathname === '/api/v1/users/channel/ada')).toEqual([]);
    expect(router.state.location.pathname).toBe('/user/@ada2/personal-information');
  });
});

describe('change password', () => {
  it('validates with the spec messages, then sends and toasts', async () => {
    const calls = serve(true, (url) => (url.pathname === '/api/v1/users/password' ? { data: null, message: 'Password updated successfully' } : undefined));
    renderApp('/user/@ada/change-password');
    const cur = await screen.findByLabelText('Current password');
    const next = screen.getByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm password');
    await userEvent.click(cur);
    await userEvent.tab();
    expect(await screen.findByText('Please enter your current password')).toBeInTheDocument();
    await userEvent.type(next, '123');
    await userEvent.tab();
    expect(await screen.findByText('New password must of be at least 6 characters')).toBeInTheDocument();
    await userEvent.type(cur, 'oldpass');
    await userEvent.clear(next);
    await userEvent.type(next, 'newpass1');
    await userEvent.type(confirm, 'newpass2');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'newpass1');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Password updated successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ email: 'ada@x.io', curPassword: 'oldpass', newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(cur).toHaveValue('');
  });
});

describe('your data (issue #12 item 8)', () => {
  it('downloads the export as a file named by the server', async () => {
    serve(true, (url) =>
      url.pathname === '/api/v1/users/me/export' ? { data: { userName: 'ada' }, headers: { 'Content-Disposition': 'attachment; filename="glimpse-ada.json"' } } : undefined,
    );
    const saved: string[] = [];
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderApp('/user/@ada/personal-information');
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved).toEqual(['glimpse-ada.json']));
    expect(click).toHaveBeenCalledOnce();
  });

  it('deletes the account with its password: a wrong one keeps the dialog with the message; then home, signed out, with a toast', async () => {
    const sent: unknown[] = [];
    serve(true, (url, init) => {
      if (url.pathname !== '/api/v1/users/me' || init.method !== 'DELETE') return undefined;
      const body = JSON.parse(String(init.body)) as { password: string };
      sent.push(body);
      return body.password === 'right-one'
        ? { data: null, message: 'Your account was deleted' }
        : { status: 400, message: 'The password is incorrect; your account was not deleted' };
    });
    const { router } = renderApp('/user/@ada/personal-information');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete account' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(within(dialog).getByText('Please enter your password')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('The password is incorrect; your account was not deleted')).toBeInTheDocument();
    expect(session.getUser()).not.toBeNull();
    expect(screen.queryByText('Please login to view your Channel.')).toBeNull();

    await userEvent.clear(within(dialog).getByLabelText('Your password'));
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'right-one');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account was deleted')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(session.getUser()).toBeNull());
    expect(session.getAccessToken()).toBeNull();
    expect(await screen.findByRole('link', { name: 'Log In' })).toBeInTheDocument();
    expect(sent).toEqual([{ password: 'wrong' }, { password: 'right-one' }]);
    expect(screen.queryByText('Please login to view your Channel.')).toBeNull();
  });
});
