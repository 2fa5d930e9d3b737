import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { ada, signInAs } from '@/test/fixtures.ts';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const channel = { ...ada, subscriberCount: 0, subscribers: 0, totalSubscribers: 0, videoCount: 0, isSubscribed: false };

describe('/user/@ada/blocked-users', () => {
  it('lists the blocked users with Unblock, then shows the empty state', async () => {
    let blocks = [{ user: { _id: 'u-bob', userName: 'bob', fullName: 'Bob', avatar: null }, blockedAt: '2024-01-01T00:00:00.000Z' }];
    signInAs();
    const calls = fakeApi((url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'users/me') return { data: { user: ada } };
      if (p === 'users/channel/ada') return { data: channel };
      if (p === 'channel-blocks/u-bob' && init.method === 'DELETE') {
        blocks = [];
        return { data: { userId: 'u-bob' }, message: 'User unblocked' };
      }
      if (p === 'channel-blocks') return { data: { blocks, hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    renderApp('/user/@ada/blocked-users');
    const section = await screen.findByRole('region', { name: 'Blocked users' });
    expect(await screen.findByRole('link', { name: 'Blocked users' })).toHaveAttribute('href', '/user/@ada/blocked-users');
    expect(await within(section).findByText('Bob')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Unblock Bob' }));
    expect(await within(section).findByRole('region', { name: 'No blocked users' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/v1/channel-blocks/u-bob')).toBe(true);
  });
});
