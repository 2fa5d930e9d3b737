import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LogEntry, QueueItem, Report, TargetContext } from '@glimpse/contract';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { session } from '@/lib/session.ts';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';

const me = { userId: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, cover: null };
const meUser = (role = 'user') => ({ _id: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, coverImage: null, role });
const page = (data: unknown[]) => ({ data: { data, hasNextPage: false, nextCursor: null } });

beforeEach(() => {
  toast.remove();
  session.clear();
});

/** Answers the watch page's calls for video v1 (owned by o1 unless told) and lets `extra` answer the rest. */
function watchServer(video: object, extra: Handler): Handler {
  return (url, init) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: meUser() } };
    if (p === 'videos/v1') return { data: { video: makeVideo(1, video) } };
    if (p === 'videos/v1/similar') return { data: { videos: [] } };
    if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
    if (p === 'playlists') return { data: { playlists: [], hasNextPage: false, nextCursor: null } };
    return extra(url, init);
  };
}

describe('Report from the ⋮ menu', () => {
  it('reports a video with a reason and an optional text', async () => {
    session.setUser(me);
    const calls = fakeApi(watchServer({}, (url) => (url.pathname === '/api/v1/reports' ? { status: 201, data: {}, message: 'Thanks, the moderators will look at it' } : undefined)));
    renderApp('/video/v1');
    await userEvent.click(await screen.findByRole('button', { name: 'More video actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report video' });
    // No reason chosen: told so, nothing sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please choose a reason');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Harassment' }));
    await userEvent.type(within(dialog).getByLabelText('Details (optional)'), 'Insults in the title');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await screen.findByText('Thanks, the moderators will look at it')).toBeInTheDocument();
    const sent = calls.filter((c) => c.url.pathname === '/api/v1/reports');
    expect(sent.map((c) => c.body)).toEqual([{ targetKind: 'video', targetId: 'v1', reason: 'harassment', text: 'Insults in the title' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the server refusal of a second report in the dialog', async () => {
    session.setUser(me);
    fakeApi(watchServer({}, (url) => (url.pathname === '/api/v1/reports' ? { status: 409, message: 'You have already reported this' } : undefined)));
    renderApp('/video/v1');
    await userEvent.click(await screen.findByRole('button', { name: 'More video actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report video' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have already reported this');
  });

  it('is not offered on your own video nor to visitors', async () => {
    session.setUser(me);
    fakeApi(watchServer({ owner: { _id: 'me', userName: 'me', fullName: 'Me Myself', avatar: null } }, () => undefined));
    renderApp('/video/v1');
    expect(await screen.findByRole('heading', { name: 'Video 1', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'More video actions' })).not.toBeInTheDocument();
  });
});

describe('the owner of a taken-down video', () => {
  it('sees the notice on the watch page and appeals once', async () => {
    session.setUser(me);
    let appealed = false;
    const takedown = () => ({ reason: 'Spam', at: '2026-11-20T10:00:00Z', appealText: appealed ? 'Not spam' : null, appealedAt: appealed ? '2026-11-21T10:00:00Z' : null, appealClosed: false });
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/takedowns/video/v1/appeal') {
        appealed = true;
        return { data: takedown(), message: 'Your appeal was sent to the moderators' };
      }
      return watchServer({ owner: { _id: 'me', userName: 'me', fullName: 'Me Myself', avatar: null }, takedown: takedown() }, () => undefined)(url, init);
    });
    renderApp('/video/v1');
    const notice = await screen.findByRole('status', { name: 'Moderation notice' });
    expect(notice).toHaveTextContent('Removed by the moderators: Spam');
    await userEvent.click(within(notice).getByRole('button', { name: 'Appeal' }));
    await userEvent.type(within(notice).getByLabelText('Your appeal'), 'Not spam');
    await userEvent.click(within(notice).getByRole('button', { name: 'Send appeal' }));
    expect(await within(notice).findByText('Your appeal was sent to the moderators.')).toBeInTheDocument();
    expect(within(notice).queryByRole('button', { name: 'Appeal' })).not.toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname.endsWith('/appeal'))?.body).toEqual({ text: 'Not spam' });
  });
});

describe('the author of a taken-down comment', () => {
  it('sees the notice under the comment and appeals from there', async () => {
    session.setUser(me);
    const notice = { reason: 'Rude', at: '2026-11-20T10:00:00Z', appealText: null, appealedAt: null, appealClosed: false };
    const mine = {
      _id: 'c1', content: 'rude words', owner: { _id: 'me', userName: 'me', fullName: 'Me Myself', avatar: null }, replies: 0, likes: 0, dislikes: 0,
      likeStatus: 0, entityType: 'video', entityId: 'v1', parentId: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), takedown: notice,
    };
    const calls = fakeApi((url, init) => {
      if (url.pathname === '/api/v1/comments/video/v1') return { data: { comments: [mine], hasNextPage: false, nextCursor: null } };
      if (url.pathname === '/api/v1/takedowns/comment/c1/appeal') return { data: { ...notice, appealText: 'Sorry', appealedAt: '2026-11-21T10:00:00Z' }, message: 'Your appeal was sent to the moderators' };
      return watchServer({}, () => undefined)(url, init);
    });
    renderApp('/video/v1');
    const box = await screen.findByRole('status', { name: 'Moderation notice' });
    expect(box).toHaveTextContent('Removed by the moderators: Rude');
    await userEvent.click(within(box).getByRole('button', { name: 'Appeal' }));
    await userEvent.type(within(box).getByLabelText('Your appeal'), 'Sorry');
    await userEvent.click(within(box).getByRole('button', { name: 'Send appeal' }));
    expect(await within(box).findByText('Your appeal was sent to the moderators.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.endsWith('/appeal')).map((c) => c.body)).toEqual([{ text: 'Sorry' }]);
  });
});

const report = (over: Partial<Report> = {}): Report => ({
  _id: 'r1',
  targetKind: 'video',
  targetId: 'v1',
  reason: 'spam',
  text: 'Buy now links',
  state: 'actioned',
  createdAt: new Date().toISOString(),
  resolvedAt: null,
  target: { label: 'Cheap watches', videoId: 'v1', tweetId: null, userName: 'bob', remoteVideoId: null },
  ...over,
});

describe('My reports', () => {
  it('is in the side menu of a logged-in user and lists the reports with their state', async () => {
    session.setUser(me);
    fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: meUser() } };
      if (url.pathname === '/api/v1/reports/mine')
        return page([report(), report({ _id: 'r2', state: 'open', target: { label: null, videoId: null, tweetId: null, userName: null, remoteVideoId: null } }), report({ _id: 'r3', state: 'dismissed', target: { label: 'Fine video', videoId: 'v2', tweetId: null, userName: 'bob', remoteVideoId: null } })]);
      return page([]);
    });
    renderApp('/help');
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(nav).getByRole('link', { name: 'My reports' }));
    const list = await screen.findByRole('list', { name: 'My reports' });
    // Acted on: named, not linked (the public page would not show it); dismissed: linked.
    expect(within(list).getByText('Cheap watches')).not.toHaveAttribute('href');
    expect(within(list).getByRole('link', { name: 'Fine video' })).toHaveAttribute('href', '/video/v2');
    expect(within(list).getByText('Action taken')).toBeInTheDocument();
    expect(within(list).getByText('Dismissed')).toBeInTheDocument();
    expect(within(list).getByText('Open')).toBeInTheDocument();
    expect(within(list).getByText('Deleted')).toBeInTheDocument();
  });

  it('has an empty state', async () => {
    session.setUser(me);
    fakeApi((url) => (url.pathname === '/api/v1/users/me' ? { data: { user: meUser() } } : page([])));
    renderApp('/my-reports');
    expect(await screen.findByRole('region', { name: 'No reports' })).toBeInTheDocument();
  });
});

const queueItem = (over: Partial<QueueItem> = {}): QueueItem => ({
  targetKind: 'video',
  targetId: 'v9',
  target: { label: 'Cheap watches', videoId: 'v9', tweetId: null, userName: 'bob', remoteVideoId: null },
  text: 'Buy now',
  thumbnail: null,
  owner: { _id: 'u-bob', userName: 'bob', fullName: 'Bob', role: 'user', state: 'active', stateReason: null, suspendedUntil: null },
  itemState: 'visible',
  takedown: null,
  reportCount: 2,
  reports: [
    { _id: 'r1', reason: 'spam', text: 'Links everywhere', state: 'open', reporter: { _id: 'u1', userName: 'carol' }, createdAt: new Date().toISOString() },
    { _id: 'r2', reason: 'copyright', text: '', state: 'open', reporter: { _id: 'u2', userName: 'dan' }, createdAt: new Date().toISOString() },
  ],
  lastActivityAt: new Date().toISOString(),
  ...over,
});

describe('/admin/reports', () => {
  it('shows reported items grouped with their reports, filters by state and kind, and takes one down with a reason', async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: meUser('moderator') } };
      if (url.pathname === '/api/v1/moderation/reports') return page(url.searchParams.get('state') === 'open' ? [queueItem()] : []);
      if (url.pathname === '/api/v1/moderation/targets/video/v9/take-down') return { data: null, message: 'Done' };
      return page([]);
    });
    renderApp('/admin/reports');
    const card = await screen.findByRole('article', { name: 'Reported video: Cheap watches' });
    expect(within(card).getByText('Links everywhere', { exact: false })).toBeInTheDocument();
    expect(within(card).getByText(/2 reports/)).toBeInTheDocument();
    expect(within(within(card).getByRole('list', { name: 'Reports' })).getAllByRole('listitem')).toHaveLength(2);

    await userEvent.click(within(card).getByRole('button', { name: 'Take down' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take it down' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Take down' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Spam links');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Take down' }));
    await waitFor(() => expect(calls.find((c) => c.url.pathname.endsWith('/take-down'))?.body).toEqual({ reason: 'Spam links' }));

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'dismissed' } });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'tweet' } });
    expect(await screen.findByRole('region', { name: 'Nothing here' })).toBeInTheDocument();
    const last = calls.filter((c) => c.url.pathname === '/api/v1/moderation/reports').at(-1)!;
    expect([last.url.searchParams.get('state'), last.url.searchParams.get('kind')]).toEqual(['dismissed', 'tweet']);
  });

  it("a comment across servers (another server's Flag) links to the remote video it is under and is only dismissed, not taken down", async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: meUser('moderator') } };
      if (url.pathname === '/api/v1/moderation/reports')
        return page([
          queueItem({
            targetKind: 'federatedComment',
            targetId: 'fc1',
            target: { label: 'Go away', videoId: null, tweetId: null, userName: 'bob', remoteVideoId: 'rv1' },
            reports: [{ _id: 'r1', reason: 'hateful', text: 'Harassment', state: 'open', reporter: { _id: 'a1', userName: 'b.example@b.example' }, createdAt: new Date().toISOString() }],
            reportCount: 1,
          }),
        ]);
      if (url.pathname === '/api/v1/moderation/targets/federatedComment/fc1/dismiss') return { data: null, message: 'Done' };
      return page([]);
    });
    renderApp('/admin/reports');
    const card = await screen.findByRole('article', { name: 'Reported comment across servers: Go away' });
    expect(within(card).getByRole('link', { name: 'Go away' })).toHaveAttribute('href', '/remote/video/rv1');
    for (const name of ['Take down', 'Delete']) expect(within(card).queryByRole('button', { name })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Dismiss' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/v1/moderation/targets/federatedComment/fc1/dismiss')).toBe(true));
    expect(screen.getByRole('option', { name: 'Comments across servers' })).toBeInTheDocument();
  });

  it('suspends the owner with a reason and an end date', async () => {
    session.setAccessToken('T');
    const calls = fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: meUser('admin') } };
      if (url.pathname === '/api/v1/moderation/reports') return page([queueItem({ targetKind: 'channel', targetId: 'u-bob', thumbnail: null })]);
      if (url.pathname === '/api/v1/moderation/users/u-bob/suspend') return { data: null, message: 'Done' };
      return page([]);
    });
    renderApp('/admin/reports');
    const card = await screen.findByRole('article', { name: 'Reported channel: Cheap watches' });
    expect(within(card).queryByRole('button', { name: 'Take down' })).not.toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend @bob' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Spam account');
    fireEvent.change(within(dialog).getByLabelText(/Until/), { target: { value: '2030-01-31' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/suspend'))).toBe(true));
    const body = calls.find((c) => c.url.pathname.endsWith('/suspend'))!.body as { reason: string; until: string };
    expect(body.reason).toBe('Spam account');
    expect(body.until.slice(0, 4)).toBe('2030');
  });
});

describe('/admin/log', () => {
  const target = (over: Partial<TargetContext>): TargetContext => ({ label: null, videoId: null, tweetId: null, userName: null, remoteVideoId: null, ...over });
  const entry = (over: Partial<LogEntry>): LogEntry => ({
    _id: 'l1',
    actor: { _id: 'me', userName: 'me' },
    fromCommandLine: false,
    targetKind: 'video',
    targetId: 'v9',
    target: target({}),
    targetExists: true,
    action: 'take_down',
    reason: '',
    createdAt: '2026-11-20T10:00:00Z',
    ...over,
  });
  const log: LogEntry[] = [
    entry({ _id: 'l1', reason: 'Spam links', target: target({ label: 'Sunset ride', videoId: 'v9', userName: 'ava' }) }),
    entry({ _id: 'l2', action: 'delete', targetKind: 'tweet', targetId: 't1', target: target({ label: 'Win a free phone' }), targetExists: false }),
    entry({ _id: 'l3', actor: null, fromCommandLine: true, action: 'role.moderator', targetKind: 'channel', targetId: 'u1', target: target({ label: 'Mona (@mona)', userName: 'mona' }) }),
    entry({ _id: 'l4', action: 'account.delete', targetKind: 'channel', targetId: null, target: target({ label: 'Lee (@lee)' }), targetExists: false }),
    entry({ _id: 'l5', actor: null, action: 'suspend', targetKind: 'channel', targetId: null, targetExists: false }),
  ];
  const serve = () => {
    session.setAccessToken('T');
    fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { data: { user: meUser('moderator') } };
      if (url.pathname === '/api/v1/moderation/log') return page(log);
      return page([]);
    });
  };
  const row = (table: HTMLElement, i: number) => within(within(table).getAllByRole('row')[i + 1]!);

  it('lists each action with its moderator, reason, date and time, and its target named and linked while it exists', async () => {
    serve();
    renderApp('/admin/log');
    const table = await screen.findByRole('table', { name: 'Moderation log' });
    const first = row(table, 0);
    expect(first.getByText('Took down')).toBeInTheDocument();
    expect(first.getByText('@me')).toBeInTheDocument();
    expect(first.getByText('Spam links')).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Sunset ride' })).toHaveAttribute('href', '/video/v9');
    // A date and a time (the hour depends on the test's time zone).
    const time = first.getByText((_, el) => el?.tagName === 'TIME');
    expect(time).toHaveAttribute('datetime', '2026-11-20T10:00:00Z');
    expect(time.textContent).toMatch(/^Nov 2\d, 2026, \d{1,2}:\d{2}\s?[AP]M$/);

    // Deleted since: its name stays, without a link.
    const deleted = row(table, 1);
    expect(deleted.getByText('Win a free phone')).toBeInTheDocument();
    expect(deleted.getByText('(deleted)')).toBeInTheDocument();
    expect(deleted.queryByRole('link')).toBeNull();

    const role = row(table, 2);
    expect(role.getByText('Command line (npm run admin)')).toBeInTheDocument();
    expect(role.getByText('Role set to moderator')).toBeInTheDocument();
    expect(role.getByRole('link', { name: 'Mona (@mona)' })).toHaveAttribute('href', '/channel/@mona/videos');

    const removed = row(table, 3);
    expect(removed.getByText('Deleted the account')).toBeInTheDocument();
    expect(removed.getByText('Lee (@lee)')).toBeInTheDocument();
    expect(removed.queryByRole('link')).toBeNull();

    // An account deleted since: no name is kept (ADR 012).
    const forgotten = row(table, 4);
    expect(forgotten.getByText('Deleted account')).toBeInTheDocument();
    expect(forgotten.getByText('Deleted')).toBeInTheDocument();
  });

  it('says it in French, dates included', async () => {
    await setLocale('fr');
    serve();
    renderApp('/admin/log');
    const table = await screen.findByRole('table', { name: 'Journal de modération' });
    const role = row(table, 2);
    expect(role.getByText('Ligne de commande (npm run admin)')).toBeInTheDocument();
    expect(role.getByText('Rôle changé en modérateur')).toBeInTheDocument();
    expect(row(table, 3).getByText('Compte supprimé par un administrateur')).toBeInTheDocument();
    expect(row(table, 0).getByText((_, el) => el?.tagName === 'TIME').textContent).toMatch(/^2\d nov\. 2026,? (à )?\d{2}:\d{2}$/);
  });
});

