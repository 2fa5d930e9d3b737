import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingRegistration } from '@glimpse/contract';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ren: PendingRegistration = {
  _id: 'u-ren',
  fullName: 'Ren Ito',
  userName: 'renito',
  email: 'ren@uni.example',
  emailVerified: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  reason: 'I film the chess club.',
};
const kai: PendingRegistration = { ...ren, _id: 'u-kai', fullName: 'Kai Berg', userName: 'kai', email: 'kai@x.io', emailVerified: false, reason: null };

/** A moderator; the queue answers `pending` until a decision removes an entry. */
function serve(pending: PendingRegistration[]) {
  session.setAccessToken('T');
  let queue = [...pending];
  return fakeApi((url, init) => {
    if (url.pathname === '/api/v1/users/me') return { data: { user: { _id: 'u1', userName: 'mo', fullName: 'Mo', email: 'mo@x.io', avatar: null, coverImage: null, role: 'moderator' } } };
    if (url.pathname === '/api/v1/moderation/registrations') return { data: { data: queue, page: 1, limit: 25, hasNextPage: false, nextCursor: null } };
    const decision = /^\/api\/v1\/moderation\/registrations\/([^/]+)\/(approve|reject)$/.exec(url.pathname);
    if (decision && init.method === 'POST') {
      queue = queue.filter((r) => r._id !== decision[1]);
      return { data: null, message: decision[2] === 'approve' ? 'Registration approved' : 'Registration rejected' };
    }
    return undefined;
  });
}

describe('/admin/registrations', () => {
  it('says clearly when no account is waiting', async () => {
    serve([]);
    renderApp('/admin/registrations');
    expect(await screen.findByRole('heading', { name: 'No registrations waiting' })).toBeInTheDocument();
  });

  it('lists the waiting accounts with what moderators need to decide', async () => {
    serve([ren, kai]);
    renderApp('/admin/registrations');
    const list = await screen.findByRole('list', { name: 'Registrations waiting for approval' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => within(i).getByText(/^(Ren Ito|Kai Berg)$/).textContent)).toEqual(['Ren Ito', 'Kai Berg']);
    expect(within(items[0]!).getByText(/ren@uni\.example \(verified\)/)).toBeInTheDocument();
    expect(within(items[0]!).getByText('I film the chess club.')).toBeInTheDocument();
    expect(within(items[1]!).getByText(/kai@x\.io \(not verified yet\)/)).toBeInTheDocument();
  });

  it('approves with one click and toasts the server message; the entry leaves the list', async () => {
    const calls = serve([ren]);
    renderApp('/admin/registrations');
    await userEvent.click(await screen.findByRole('button', { name: 'Approve Ren Ito' }));
    expect(await screen.findByText('Registration approved')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/v1/moderation/registrations/u-ren/approve')).toBe(true);
    expect(await screen.findByRole('heading', { name: 'No registrations waiting' })).toBeInTheDocument();
  });

  it('rejects only with a reason, asked in a dialog, and sends it', async () => {
    const calls = serve([ren]);
    renderApp('/admin/registrations');
    await userEvent.click(await screen.findByRole('button', { name: 'Reject Ren Ito' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Ren Ito?' });
    const reason = within(dialog).getByLabelText('Reason (mailed to ren@uni.example)');
    expect(reason).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject registration' }));
    expect(await within(dialog).findByText('Please enter a reason')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await userEvent.type(reason, 'Only for club members.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject registration' }));
    expect(await screen.findByText('Registration rejected')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/v1/moderation/registrations/u-ren/reject');
    expect(post.body).toEqual({ reason: 'Only for club members.' });
  });
});
