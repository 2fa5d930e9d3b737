import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/session.ts';
import { makeComment, makeVideo, owner } from '@/test/fixtures.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import type { Comment } from '@/types/api.ts';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const bob = { _id: 'u-bob', userName: 'bob', fullName: 'Bob', avatar: null };
const comment = (id: string, over: Partial<Comment> = {}) => makeComment(id, { content: `comment ${id}`, owner: bob, ...over });
const page = (comments: unknown[]) => ({ data: { comments, hasNextPage: false, nextCursor: null } });

function serve(video = makeVideo(1, { noOfComments: 2 }), over: Handler = () => undefined) {
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'videos/v1') return { data: { video } };
    if (p === 'videos/v1/similar') return { data: { videos: [] } };
    if (p === 'comments/video/v1') return page([comment('c1', { state: 'held', content: 'a spoiler' }), comment('c2')]);
    return undefined;
  });
}

describe('creator moderation on the watch page', () => {
  it("gives the video's owner Approve, Pin, Block and Delete on others' comments; a pinned one says by whom", async () => {
    session.setUser({ userId: owner._id, userName: owner.userName, fullName: owner.fullName, email: 'ada@x.io', avatar: null, cover: null });
    const calls = serve(undefined, (url, init) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'comments/c1/approve') return { data: comment('c1', { state: 'published' }), message: 'Comment approved' };
      if (p === 'comments/c2/pin' && init.method === 'POST') return { data: comment('c2', { pinned: true }), message: 'Comment pinned' };
      if (p === 'channel-blocks' && init.method === 'POST') return { status: 201, data: { userId: bob._id } };
      return undefined;
    });
    renderApp('/video/v1');
    const [first, second] = await screen.findAllByRole('article', { name: 'Comment by Bob' });
    expect(within(first!).getByText('Held for review')).toBeInTheDocument();

    await userEvent.click(within(first!).getByRole('button', { name: 'Comment actions' }));
    const menu = within(first!).getByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual(['Approve', 'Block from my channel', 'Delete', 'Report']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Approve' }));
    await waitFor(() => expect(within(first!).queryByText('Held for review')).toBeNull());
    expect(screen.getByRole('heading', { name: '3 Comments' })).toBeInTheDocument();

    await userEvent.click(within(second!).getByRole('button', { name: 'Comment actions' }));
    await userEvent.click(within(second!).getByRole('menuitem', { name: 'Pin' }));
    expect(await within(second!).findByText('Pinned by Ada Lovelace')).toBeInTheDocument();
    expect(screen.getAllByRole('article', { name: 'Comment by Bob' })[0]).toHaveTextContent('comment c2');

    await userEvent.click(within(second!).getByRole('button', { name: 'Comment actions' }));
    await userEvent.click(within(second!).getByRole('menuitem', { name: 'Block from my channel' }));
    expect(await screen.findByText('User blocked from commenting on your channel')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/v1/channel-blocks')!.body).toEqual({ userId: bob._id });
  });

  it('tells the author their comment is held, marks it and leaves the count alone; others get no moderation menu', async () => {
    session.setUser({ userId: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, cover: null });
    serve(undefined, (url, init) =>
      url.pathname === '/api/v1/comments/video/v1' && init.method === 'POST'
        ? { status: 201, data: comment('new1', { content: 'spoiler!', state: 'held', owner: { _id: 'me', userName: 'me', fullName: 'Me Myself', avatar: null } }), message: 'Your comment is held for review by the channel owner' }
        : undefined,
    );
    renderApp('/video/v1');
    const others = await screen.findAllByRole('article', { name: 'Comment by Bob' });
    expect(within(others[1]!).queryByRole('button', { name: 'Comment actions' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'spoiler!');
    await userEvent.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByText('Your comment is held for review by the channel owner')).toBeInTheDocument();
    const mine = await screen.findByRole('article', { name: 'Comment by Me Myself' });
    expect(within(mine).getByText('Held for review')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2 Comments' })).toBeInTheDocument();
  });

  it('shows "Comments are turned off for this video" instead of the box and the list', async () => {
    session.setUser({ userId: 'me', userName: 'me', fullName: 'Me Myself', email: 'me@x.io', avatar: null, cover: null });
    const calls = serve(makeVideo(1, { commentsEnabled: false, noOfComments: 2 }));
    renderApp('/video/v1');
    expect(await screen.findByText('Comments are turned off for this video')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Add a comment' })).toBeNull();
    expect(calls.some((c) => c.url.pathname.startsWith('/api/v1/comments/'))).toBe(false);
  });
});
