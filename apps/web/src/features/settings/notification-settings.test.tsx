import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultEmailModes } from '@glimpse/contract';
import { DEFAULT_INSTANCE } from '@/lib/public-config.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { signInAs } from '@/test/fixtures.ts';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: '0190aaaa-0000-7000-8000-000000000001', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };
const channel = { ...ada, subscriberCount: 0, subscribers: 0, totalSubscribers: 0, videoCount: 0, isSubscribed: false };

describe('/user/@ada/notifications', () => {
  it('shows one radio group per mailable type and saves a change with a toast', async () => {
    let settings: Record<string, string> = { ...defaultEmailModes };
    signInAs(ada);
    const calls = fakeApi((url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'users/me') return { data: { user: ada } };
      if (p === 'users/channel/ada') return { data: channel };
      if (p === 'notifications/settings' && init.method === 'PATCH') {
        settings = { ...settings, ...JSON.parse(String(init.body)) };
        return { data: { settings }, message: 'Notification settings saved' };
      }
      if (p === 'notifications/settings') return { data: { settings } };
      return undefined;
    });
    renderApp('/user/@ada/notifications');
    // The settings tab (the side menu has a Notifications link of its own, to the list).
    const tabs = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(tabs).getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/user/@ada/notifications');
    const section = await screen.findByRole('region', { name: 'Email notifications' });
    const comments = await within(section).findByRole('group', { name: 'Comments on my videos and posts' });
    expect(within(comments).getByRole('radio', { name: 'At once' })).toBeChecked();
    const videos = within(section).getByRole('group', { name: 'New videos from my subscriptions' });
    expect(within(videos).getByRole('radio', { name: 'Daily digest' })).toBeChecked();
    expect(within(section).getAllByRole('group')).toHaveLength(7);
    const lives = within(section).getByRole('group', { name: 'Lives starting on my subscriptions' });
    expect(within(lives).getByRole('radio', { name: 'At once' })).toBeChecked();

    await userEvent.click(within(comments).getByRole('radio', { name: 'Off' }));
    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(within(comments).getByRole('radio', { name: 'Off' })).toBeChecked();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ comment: 'off' }]);
  });

  it("is titled with the instance's name", async () => {
    signInAs(ada);
    fakeApi((url) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'config') return { data: { instance: { ...DEFAULT_INSTANCE, name: 'Ciné Club' } } };
      if (p === 'users/me') return { data: { user: ada } };
      if (p === 'users/channel/ada') return { data: channel };
      if (p === 'notifications/settings') return { data: { settings: defaultEmailModes } };
      return undefined;
    });
    renderApp('/user/@ada/notifications');
    await waitFor(() => expect(document.title).toBe('Email notifications - Ciné Club'));
  });
});

describe('/unsubscribe', () => {
  const token = `v1.${ada._id}.reply.c2lnbmF0dXJl`;

  it('says which mails stop and changes nothing until the button is pressed', async () => {
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/notifications/unsubscribe' && init.method === 'POST')
        return { data: { scope: 'reply', types: ['reply'] }, message: 'You will no longer get these mails' };
      return undefined;
    });
    renderApp(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await screen.findByText('Replies to my comments')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.includes('unsubscribe'))).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('Done: you will no longer get these mails.')).toBeInTheDocument();
    const posts = calls.filter((c) => c.url.pathname === '/api/v1/notifications/unsubscribe');
    expect(posts.map((c) => [c.method, c.url.searchParams.get('token')])).toEqual([['POST', token]]);
  });

  it("shows the server's refusal, and a link that names no mail as not valid", async () => {
    fakeApi(() => ({ status: 400, message: 'This unsubscribe link is not valid' }));
    renderApp(`/unsubscribe?token=${encodeURIComponent(token)}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid');
  });

  it("names the instance: the card, the link home and the page's title", async () => {
    fakeApi((url) => (url.pathname === '/api/v1/config' ? { data: { instance: { ...DEFAULT_INSTANCE, name: 'Ciné Club' } } } : undefined));
    renderApp(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await screen.findByRole('link', { name: 'Go to Ciné Club' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Ciné Club home' })).toHaveTextContent('Ciné Club');
    await waitFor(() => expect(document.title).toBe('Unsubscribe - Ciné Club'));
  });

  it('a link without a usable token offers no button', async () => {
    fakeApi(() => undefined);
    renderApp('/unsubscribe?token=garbage');
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid');
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
