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
      if (p === 'federation/channel-blocks') return { data: { blocks: [] } };
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

  it('lists the accounts of other servers the channel blocks, each with Unblock', async () => {
    let remote = [{ actorId: 'a1', handle: '@bob@b.example', name: 'Bob B', blockedAt: '2024-01-01T00:00:00.000Z' }];
    signInAs();
    const calls = fakeApi((url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'users/me') return { data: { user: ada } };
      if (p === 'users/channel/ada') return { data: channel };
      if (p === 'channel-blocks') return { data: { blocks: [], hasNextPage: false, nextCursor: null } };
      if (p === 'federation/channel-blocks/a1' && init.method === 'DELETE') {
        remote = [];
        return { data: { actorId: 'a1' }, message: 'Account unblocked' };
      }
      if (p === 'federation/channel-blocks') return { data: { blocks: remote } };
      return undefined;
    });
    renderApp('/user/@ada/blocked-users');
    const section = await screen.findByRole('region', { name: 'Accounts on other servers' });
    expect(await within(section).findByText('Bob B')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Unblock @bob@b.example' }));
    expect(await within(section).findByText('No account of another server is blocked.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/v1/federation/channel-blocks/a1')).toBe(true);
  });
});
