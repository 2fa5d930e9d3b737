import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTweet, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import { createVideoWithThumbnail, publicUrl } from '../../../test/media.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let alice: UserRow;
let bob: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.ctx);
  bob = await createUser(t.ctx);
});
afterAll(() => t.close());

const react = (as: UserRow | null, type: string, id: string, action: 'like' | 'dislike') =>
  call(t, 'POST', `/likes/${type}/${id}/${action}`, { as: as ?? undefined });
const likeRows = async () => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM likes`))[0]!.n;

describe('POST /likes/{entityType}/{entityId}/like|dislike', () => {
  it('is 401 with the spec message when anonymous', async () => {
    const video = await createVideo(t.ctx, alice);
    expectError(await react(null, 'video', video.id, 'like'), 401, 'Please login to like/dislike');
    expectError(await react(null, 'photo', 'x', 'dislike'), 401, 'Please login to like/dislike');
  });

  it('rejects unknown types, malformed and missing ids, and hidden videos; nothing changes', async () => {
    const hidden = await createVideo(t.ctx, alice, { privacy: 'private' });
    const processing = await createVideo(t.ctx, alice, { status: 'processing' });
    const onHidden = (await call(t, 'POST', `/comments/video/${hidden.id}`, { as: alice, body: { content: 'mine' } })).body.data._id;
    const before = await likeRows();
    expectError(await react(bob, 'photo', hidden.id, 'like'), 400, /entityType/);
    expectError(await react(bob, 'video', 'nope', 'like'), 400, 'Invalid id');
    expectError(await react(bob, 'video', MISSING_ID, 'like'), 404, 'Video not found');
    expectError(await react(bob, 'tweet', MISSING_ID, 'dislike'), 404, 'Tweet not found');
    expectError(await react(bob, 'comment', MISSING_ID, 'like'), 404, 'Comment not found');
    expectError(await react(bob, 'video', hidden.id, 'like'), 404, 'Video not found');
    expectError(await react(bob, 'video', processing.id, 'dislike'), 404, 'Video not found');
    expectError(await react(bob, 'comment', onHidden, 'like'), 404, 'Comment not found');
    expect(await likeRows()).toBe(before);
    // The owner still sees, and may like, their own unpublished video.
    expect((await react(alice, 'video', hidden.id, 'like')).body.data).toEqual({ likes: 1, dislikes: 0, likeStatus: 1 });
  });

  it.each(['video', 'tweet', 'comment'] as const)('toggles likes and dislikes on a %s, mutually exclusive', async (type) => {
    const video = await createVideo(t.ctx, alice);
    const id =
      type === 'video'
        ? video.id
        : type === 'tweet'
          ? (await createTweet(t.ctx, alice)).id
          : (await call(t, 'POST', `/comments/video/${video.id}`, { as: alice, body: { content: 'c' } })).body.data._id;

    const liked = await react(bob, type, id, 'like');
    expect(liked.status).toBe(200);
    expect(liked.body).toMatchObject({ success: true, message: 'Liked successfully', data: { likes: 1, dislikes: 0, likeStatus: 1 } });
    expect((await react(alice, type, id, 'like')).body.data).toEqual({ likes: 2, dislikes: 0, likeStatus: 1 });
    expect((await react(bob, type, id, 'dislike')).body.data).toEqual({ likes: 1, dislikes: 1, likeStatus: -1 });
    const undone = await react(bob, type, id, 'dislike');
    expect(undone.body).toMatchObject({ message: 'Dislike removed successfully', data: { likes: 1, dislikes: 0, likeStatus: 0 } });
    expect((await react(alice, type, id, 'like')).body.data).toEqual({ likes: 0, dislikes: 0, likeStatus: 0 });
    expect((await react(bob, type, id, 'like')).body.data).toEqual({ likes: 1, dislikes: 0, likeStatus: 1 });
  });

  it('keeps counters equal to the rows under 50 concurrent toggles by 10 users', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser(t.ctx)));
    const video = await createVideo(t.ctx, alice);
    const tweet = await createTweet(t.ctx, alice);
    const comment = (await call(t, 'POST', `/comments/tweet/${tweet.id}`, { as: alice, body: { content: 'c' } })).body.data._id;
    for (const [type, id, table] of [
      ['video', video.id, 'videos'],
      ['tweet', tweet.id, 'tweets'],
      ['comment', comment, 'comments'],
    ] as const) {
      const clicks = Array.from({ length: 50 }, (_, i) => react(users[i % 10]!, type, id, i % 3 === 0 ? 'dislike' : 'like'));
      const answers = await Promise.all(clicks);
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      const [stored] = await rows<{ likes: number; dislikes: number }>(
        t,
        sql`SELECT likes, dislikes FROM ${sql.identifier(table)} WHERE id = ${id}`,
      );
      const column = sql.identifier(`${type}_id`);
      const [counted] = await rows<{ likes: number; dislikes: number; users: number; n: number }>(
        t,
        sql`SELECT count(*) FILTER (WHERE value = 1)::int AS likes, count(*) FILTER (WHERE value = -1)::int AS dislikes,
                   count(DISTINCT user_id)::int AS users, count(*)::int AS n
            FROM likes WHERE ${column} = ${id}`,
      );
      expect(stored).toEqual({ likes: counted!.likes, dislikes: counted!.dislikes });
      // One row per user at most.
      expect(counted!.n).toBe(counted!.users);
    }
  });
});

describe('GET /likes/video', () => {
  it('is 401 when anonymous', async () => {
    expectError(await call(t, 'GET', '/likes/video'), 401, 'Please login to view your liked videos');
  });

  it('lists liked videos the viewer may see, most recently liked first, each with a video object', async () => {
    const carol = await createUser(t.ctx);
    const first = await createVideoWithThumbnail(t.ctx, alice, { title: 'First' });
    const second = await createVideo(t.ctx, alice, { title: 'Second' });
    const disliked = await createVideo(t.ctx, alice);
    const laterHidden = await createVideo(t.ctx, alice);
    const own = await createVideo(t.ctx, carol, { privacy: 'private', title: 'Own draft' });
    await react(carol, 'video', first.id, 'like');
    await react(carol, 'video', laterHidden.id, 'like');
    await react(carol, 'video', second.id, 'like');
    await react(carol, 'video', disliked.id, 'dislike');
    await react(carol, 'video', own.id, 'like');
    await rows(t, sql`UPDATE videos SET privacy = 'private' WHERE id = ${laterHidden.id}`);

    const res = await call(t, 'GET', '/likes/video?limit=2', { as: carol });
    expect(res.status).toBe(200);
    const { likedVideos, hasNextPage, nextCursor } = res.body.data;
    expect(likedVideos.map((l: { video: { title: string } }) => l.video.title)).toEqual(['Own draft', 'Second']);
    expect(hasNextPage).toBe(true);
    const rest = await call(t, 'GET', `/likes/video?limit=2&cursor=${nextCursor}`, { as: carol });
    expect(rest.body.data.likedVideos).toHaveLength(1);
    expect(rest.body.data.likedVideos[0].video).toMatchObject({
      _id: first.id,
      title: 'First',
      description: 'A test video',
      duration: 42,
      views: 0,
      isPublished: true,
      thumbnail: { url: publicUrl(first, 'thumb.jpg') },
      owner: { _id: alice.id, userName: alice.userName, fullName: alice.fullName, avatar: null },
    });
    expect(rest.body.data.hasNextPage).toBe(false);
  });
});
