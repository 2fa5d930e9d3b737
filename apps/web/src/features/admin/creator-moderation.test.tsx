import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '@glimpse/contract';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };

function serve(role: Role, handler: Handler) {
  session.setAccessToken('T');
  return fakeApi((url, init) => {
    if (url.pathname === '/api/v1/users/me') return { data: { user: { ...ada, role } } };
    return handler(url, init);
  });
}

describe('/admin/watched-words', () => {
  it('is a tab for admins only', async () => {
    serve('moderator', () => ({ data: { tweets: [], hasNextPage: false, nextCursor: null } }));
    renderApp('/admin');
    const tabs = await screen.findByRole('navigation', { name: 'Administration sections' });
    const labels = within(tabs).getAllByRole('link').map((l) => l.textContent);
    expect(labels).toContain('Held tweets');
    expect(labels).not.toContain('Watched words');
  });

  it('starts with an empty state, adds a word and removes it', async () => {
    let words: { _id: string; word: string; createdAt: string }[] = [];
    const calls = serve('admin', (url, init) => {
      if (url.pathname === '/api/v1/admin/watched-words' && init.method === 'POST') {
        const word = JSON.parse(init.body as string).word as string;
        words = [{ _id: 'w1', word, createdAt: '' }];
        return { status: 201, data: words[0], message: 'Watched word added' };
      }
      if (url.pathname === '/api/v1/admin/watched-words/w1' && init.method === 'DELETE') {
        words = [];
        return { data: { _id: 'w1' }, message: 'Watched word removed' };
      }
      if (url.pathname === '/api/v1/admin/watched-words') return { data: { words } };
      return undefined;
    });
    renderApp('/admin/watched-words');
    expect(await screen.findByRole('region', { name: 'No watched words' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Word or phrase' }), '  bad apple ');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const list = await screen.findByRole('list', { name: 'Watched words' });
    expect(within(list).getByText('bad apple')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ word: 'bad apple' });
    expect(screen.getByRole('textbox', { name: 'Word or phrase' })).toHaveValue('');
    await userEvent.click(within(list).getByRole('button', { name: 'Remove bad apple' }));
    expect(await screen.findByRole('region', { name: 'No watched words' })).toBeInTheDocument();
  });
});

describe('/admin/held-tweets', () => {
  it('lists held tweets marked for review; Approve publishes and the list empties', async () => {
    const tweet = {
      _id: 't1',
      content: 'a spoiler',
      image: null,
      likes: 0,
      dislikes: 0,
      comments: 0,
      likeStatus: 0,
      owner: { _id: 'u-bob', userName: 'bob', fullName: 'Bob', avatar: null },
      state: 'held',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    };
    let held = [tweet];
    const calls = serve('moderator', (url, init) => {
      if (url.pathname === '/api/v1/moderation/held-tweets/t1/approve' && init.method === 'POST') {
        held = [];
        return { data: { ...tweet, state: 'published' }, message: 'Tweet approved' };
      }
      if (url.pathname === '/api/v1/moderation/held-tweets') return { data: { tweets: held, hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    renderApp('/admin/held-tweets');
    const card = await screen.findByRole('article', { name: 'Tweet by Bob' });
    expect(within(card).getByText('Held for review')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Approve tweet by Bob' }));
    expect(await screen.findByRole('region', { name: 'No held tweets' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
  });
});

describe('/admin/federation', () => {
  it('switches to an allow-list, allows a server, blocks one and lifts the block', async () => {
    let policy = { mode: 'open', allowedHosts: [] as string[] };
    let blocks: { target: string; kind: string; createdAt: string }[] = [];
    const calls = serve('admin', (url, init) => {
      if (url.pathname === '/api/v1/admin/federation/policy' && init.method === 'PUT') {
        policy = { ...policy, mode: JSON.parse(init.body as string).mode };
        return { data: policy };
      }
      if (url.pathname === '/api/v1/admin/federation/policy') return { data: policy };
      if (url.pathname === '/api/v1/admin/federation/allowed-hosts' && init.method === 'POST') {
        policy = { ...policy, allowedHosts: [JSON.parse(init.body as string).host] };
        return { status: 201, data: policy };
      }
      if (url.pathname === '/api/v1/admin/federation/blocks' && init.method === 'POST') {
        blocks = [{ target: JSON.parse(init.body as string).target, kind: 'host', createdAt: '' }];
        return { status: 201, data: blocks[0] };
      }
      if (url.pathname === '/api/v1/admin/federation/blocks' && init.method === 'DELETE') {
        blocks = blocks.filter((b) => b.target !== url.searchParams.get('target'));
        return { data: null };
      }
      if (url.pathname === '/api/v1/admin/federation/blocks') return { data: { blocks } };
      return undefined;
    });
    renderApp('/admin/federation');
    const allowlist = await screen.findByRole('radio', { name: 'Only the allowed servers below' });
    expect(screen.getByRole('radio', { name: 'Every server except the blocked ones' })).toBeChecked();
    await userEvent.click(allowlist);
    await waitFor(() => expect(allowlist).toBeChecked());
    await userEvent.type(screen.getByRole('textbox', { name: 'Server (example.org)' }), 'friend.example');
    await userEvent.click(within(screen.getByRole('region', { name: 'Which servers this one federates with' })).getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('list', { name: 'Allowed servers' })).toHaveTextContent('friend.example');

    const blocked = screen.getByRole('region', { name: 'Blocked servers and accounts' });
    expect(within(blocked).getByText('Nothing is blocked.')).toBeInTheDocument();
    await userEvent.type(within(blocked).getByRole('textbox'), 'bad.example');
    await userEvent.click(within(blocked).getByRole('button', { name: 'Add' }));
    const list = await within(blocked).findByRole('list', { name: 'Blocked servers and accounts' });
    expect(list).toHaveTextContent('bad.example');
    await userEvent.click(within(list).getByRole('button', { name: 'Remove bad.example' }));
    expect(await within(blocked).findByText('Nothing is blocked.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url.pathname}${c.url.search}`)).toEqual([
      'PUT /api/v1/admin/federation/policy',
      'POST /api/v1/admin/federation/allowed-hosts',
      'POST /api/v1/admin/federation/blocks',
      'DELETE /api/v1/admin/federation/blocks?target=bad.example',
    ]);
  });
});
