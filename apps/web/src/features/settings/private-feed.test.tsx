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
const feedUrl = (token: string) => `https://glimpse.example/api/v1/feeds/subscriptions/${token}`;

/** Ada, logged in, on her settings page; the token routes keep their state here. */
function serve(initial: { exists: boolean; createdAt: string | null }) {
  let status = initial;
  let made = 0;
  signInAs();
  return fakeApi((url, init) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: ada } };
    if (p === 'users/channel/ada') return { data: channel };
    if (p !== 'feeds/token') return undefined;
    if (init.method === 'POST') {
      made += 1;
      const token = `token-${made}`;
      status = { exists: true, createdAt: `2025-03-0${made}T12:00:00.000Z` };
      return { status: 201, data: { token, rss: feedUrl(token), atom: `${feedUrl(token)}?format=atom`, createdAt: status.createdAt }, message: 'Private feed created' };
    }
    if (init.method === 'DELETE') {
      status = { exists: false, createdAt: null };
      return { data: null, message: 'Private feed revoked' };
    }
    return { data: status };
  });
}

describe('Settings: private feed', () => {
  it('creates the feed and shows its addresses once, with copy buttons', async () => {
    const user = userEvent.setup();
    const calls = serve({ exists: false, createdAt: null });
    renderApp('/user/@ada/personal-information');
    const section = await screen.findByRole('region', { name: 'Feeds' });
    expect(await within(section).findByText('You have no private feed.')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Revoke' })).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Create private feed' }));
    const addresses = await within(section).findByRole('group', { name: 'Copy your addresses now: they are shown only this once.' });
    expect(within(addresses).getByLabelText('RSS address')).toHaveValue(feedUrl('token-1'));
    expect(within(addresses).getByLabelText('Atom address')).toHaveValue(`${feedUrl('token-1')}?format=atom`);
    expect(within(section).getByText('You have a private feed, created on 2025-03-01.')).toBeInTheDocument();

    await user.click(within(addresses).getByRole('button', { name: 'Copy Atom address' }));
    expect(await navigator.clipboard.readText()).toBe(`${feedUrl('token-1')}?format=atom`);
    expect(await screen.findByText('Atom address copied')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/v1/feeds/token')).toHaveLength(1);
  });

  it('shows an existing feed without its addresses; reset shows the new ones, revoke ends it', async () => {
    const user = userEvent.setup();
    const calls = serve({ exists: true, createdAt: '2025-02-01T12:00:00.000Z' });
    renderApp('/user/@ada/personal-information');
    const section = await screen.findByRole('region', { name: 'Feeds' });
    expect(await within(section).findByText('You have a private feed, created on 2025-02-01.')).toBeInTheDocument();
    expect(within(section).queryByLabelText('RSS address')).toBeNull();

    await user.click(within(section).getByRole('button', { name: 'Reset address' }));
    expect(await within(section).findByLabelText('RSS address')).toHaveValue(feedUrl('token-1'));
    expect(await screen.findByText('Your private feed has new addresses')).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Revoke' }));
    expect(await within(section).findByText('You have no private feed.')).toBeInTheDocument();
    expect(within(section).queryByLabelText('RSS address')).toBeNull();
    expect(within(section).getByRole('button', { name: 'Create private feed' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/v1/feeds/token')).toBe(true);
  });
});
