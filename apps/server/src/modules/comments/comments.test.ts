import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTweet, createUser, createVideo, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let alice: UserRow;
let bob: UserRow;
let videoId: string;
let hiddenVideoId: string;
let tweetId: string;

beforeAll(async () => {
  t = await createTestApp();
  alice = await createUser(t.ctx, { fullName: 'Alice' });
  bob = await createUser(t.ctx, { fullName: 'Bob' });
  videoId = (await createVideo(t.ctx, alice)).id;
  hiddenVideoId = (await createVideo(t.ctx, alice, { privacy: 'private' })).id;
  tweetId = (await createTweet(t.ctx, alice)).id;
});
afterAll(() => t.close());

const countOf = async (table: 'videos' | 'tweets', id: string) =>
  (await rows<{ n: number }>(t, sql`SELECT comments_count AS n FROM ${sql.identifier(table)} WHERE id = ${id}`))[0]!.n;
const commentRows = async () => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM comments`))[0]!.n;
const post = (url: string, content: unknown, as: UserRow | null = bob) => call(t, 'POST', url, { as: as ?? undefined, body: { content } });

describe('POST /comments/{entityType}/{entityId}[/{parentId}]', () => {
  it('is 401 with the spec message when anonymous, even with bad input', async () => {
    expectError(await post(`/comments/video/${videoId}`, 'hi', null), 401, 'Please login to comment');
    expectError(await post(`/comments/video/${videoId}`, '', null), 401, 'Please login to comment');
  });

  it('rejects bad input with 400 and stores nothing', async () => {
    const before = await commentRows();
    expectError(await post(`/comments/photo/${videoId}`, 'hi'), 400, /entityType/);
    expectError(await post(`/comments/video/not-a-uuid`, 'hi'), 400, 'Invalid id');
    expectError(await post(`/comments/video/${videoId}`, '   '), 400, 'Comment content is required');
    expectError(await post(`/comments/video/${videoId}`, undefined), 400);
    expectError(await post(`/comments/video/${videoId}`, 'x'.repeat(1001)), 400, /at most 1000/);
    expect(await commentRows()).toBe(before);
    expect(await countOf('videos', videoId)).toBe(0);
  });

  it('is 404 for a missing video or tweet and for another user’s unpublished video', async () => {
    expectError(await post(`/comments/video/${MISSING_ID}`, 'hi'), 404, 'Video not found');
    expectError(await post(`/comments/tweet/${MISSING_ID}`, 'hi'), 404, 'Tweet not found');
    expectError(await post(`/comments/video/${hiddenVideoId}`, 'hi'), 404, 'Video not found');
  });

  it('is 404 for a missing parent and 400 for a parent on another entity', async () => {
    const onTweet = await post(`/comments/tweet/${tweetId}`, 'on the tweet');
    expect(onTweet.status).toBe(201);
    const before = await commentRows();
    expectError(await post(`/comments/video/${videoId}/${MISSING_ID}`, 'hi'), 404, 'Parent comment not found');
    expectError(
      await post(`/comments/video/${videoId}/${onTweet.body.data._id}`, 'hi'),
      400,
      'The parent comment belongs to another video or tweet',
    );
    expect(await commentRows()).toBe(before);
    expect(await countOf('videos', videoId)).toBe(0);
  });

  it('adds a trimmed comment and a reply, counting both on the entity', async () => {
    const video = (await createVideo(t.ctx, alice)).id;
    const res = await post(`/comments/video/${video}`, '  Nice video  ');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, statusCode: 201 });
    expect(res.body.data).toMatchObject({
      content: 'Nice video',
      replies: 0,
      likes: 0,
      dislikes: 0,
      likeStatus: 0,
      entityType: 'video',
      entityId: video,
      parentId: null,
      owner: { _id: bob.id, fullName: 'Bob', userName: bob.userName },
    });
    expect(res.body.data._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(res.body.data.createdAt)).not.toBeNaN();

    const reply = await post(`/comments/video/${video}/${res.body.data._id}`, 'Thanks', alice);
    expect(reply.status).toBe(201);
    expect(reply.body.data.parentId).toBe(res.body.data._id);
    expect(await countOf('videos', video)).toBe(2);
    const [parent] = await rows<{ replies_count: number }>(t, sql`SELECT replies_count FROM comments WHERE id = ${res.body.data._id}`);
    expect(parent!.replies_count).toBe(1);
  });

  it('lets the owner comment on their own unpublished video', async () => {
    expect((await post(`/comments/video/${hiddenVideoId}`, 'draft note', alice)).status).toBe(201);
  });
});

describe('GET comments and replies', () => {
  let video: string;
  let top: string[];

  beforeAll(async () => {
    video = (await createVideo(t.ctx, alice)).id;
    top = [];
    for (let i = 0; i < 12; i++) top.push((await post(`/comments/video/${video}`, `top ${i}`)).body.data._id);
    for (let i = 0; i < 3; i++) await post(`/comments/video/${video}/${top[11]}`, `reply ${i}`, alice);
    await call(t, 'POST', `/likes/comment/${top[11]}/like`, { as: bob });
  });

  it('lists top-level comments newest first, 10 per page, with replies, likes and likeStatus', async () => {
    const res = await call(t, 'GET', `/comments/video/${video}`, { as: bob });
    expect(res.status).toBe(200);
    const { comments, hasNextPage, nextCursor, page, limit } = res.body.data;
    expect({ page, limit, hasNextPage }).toEqual({ page: 1, limit: 10, hasNextPage: true });
    expect(comments).toHaveLength(10);
    expect(comments[0]).toMatchObject({ _id: top[11], content: 'top 11', replies: 3, likes: 1, dislikes: 0, likeStatus: 1 });
    expect(comments.every((c: { parentId: null }) => c.parentId === null)).toBe(true);

    const next = await call(t, 'GET', `/comments/video/${video}?cursor=${nextCursor}`);
    expect(next.body.data.comments.map((c: { content: string }) => c.content)).toEqual(['top 1', 'top 0']);
    expect(next.body.data.hasNextPage).toBe(false);
    const page2 = await call(t, 'GET', `/comments/video/${video}?page=2&limit=10&userId=${alice.id}`);
    expect(page2.body.data.comments.map((c: { _id: string }) => c._id)).toEqual([top[1], top[0]]);
  });

  it('answers likeStatus only from the token, never from userId', async () => {
    const res = await call(t, 'GET', `/comments/video/${video}?userId=${bob.id}`);
    expect(res.body.data.comments[0].likeStatus).toBe(0);
  });

  it('lists the replies of one comment (the three-segment route)', async () => {
    const res = await call(t, 'GET', `/comments/video/${video}/${top[11]}`);
    expect(res.status).toBe(200);
    expect(res.body.data.comments.map((c: { content: string }) => c.content)).toEqual(['reply 2', 'reply 1', 'reply 0']);
    expect(res.body.data.comments[0]).toMatchObject({ parentId: top[11], replies: 0, owner: { _id: alice.id } });
  });

  it('lists tweet comments', async () => {
    const tweet = (await createTweet(t.ctx, alice)).id;
    await post(`/comments/tweet/${tweet}`, 'tweet comment');
    const res = await call(t, 'GET', `/comments/tweet/${tweet}`);
    expect(res.status).toBe(200);
    expect(res.body.data.comments).toMatchObject([{ content: 'tweet comment', entityType: 'tweet', entityId: tweet }]);
  });

  it('rejects bad lookups with clear 4xx answers', async () => {
    expectError(await call(t, 'GET', `/comments/video/${MISSING_ID}`), 404, 'Video not found');
    expectError(await call(t, 'GET', `/comments/tweet/${MISSING_ID}`), 404, 'Tweet not found');
    expectError(await call(t, 'GET', `/comments/video/${hiddenVideoId}`, { as: bob }), 404, 'Video not found');
    expectError(await call(t, 'GET', `/comments/video/nope`), 400, 'Invalid id');
    expectError(await call(t, 'GET', `/comments/photo/${video}/${top[0]}`), 400, /entityType/);
    expectError(await call(t, 'GET', `/comments/video/${video}/${MISSING_ID}`), 404, 'Parent comment not found');
    expectError(await call(t, 'GET', `/comments/video/${videoId}/${top[0]}`), 400, 'The parent comment belongs to another video or tweet');
    expectError(await call(t, 'GET', `/comments/video/${video}?limit=0`), 400);
    expectError(await call(t, 'GET', `/comments/video/${video}?cursor=garbage`), 400, 'Invalid cursor');
  });

  it('shows the owner the comments of their unpublished video', async () => {
    const res = await call(t, 'GET', `/comments/video/${hiddenVideoId}`, { as: alice });
    expect(res.status).toBe(200);
  });
});

describe('PATCH /comments/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await post(`/comments/video/${videoId}`, 'first take')).body.data._id;
  });

  it('answers 401, 404, 403 and 400 without changing the comment', async () => {
    expectError(await call(t, 'PATCH', `/comments/${id}`, { body: { content: 'x' } }), 401, 'Please login to comment');
    expectError(await call(t, 'PATCH', `/comments/${MISSING_ID}`, { as: bob, body: { content: 'x' } }), 404, 'Comment not found');
    expectError(await call(t, 'PATCH', `/comments/${id}`, { as: alice, body: { content: 'x' } }), 403);
    expectError(await call(t, 'PATCH', `/comments/${id}`, { as: bob, body: { content: '  ' } }), 400, 'Comment content is required');
    expectError(await call(t, 'PATCH', `/comments/${id}`, { as: bob, body: { content: ' first take ' } }), 400, 'Comment content is unchanged');
    const [row] = await rows<{ content: string }>(t, sql`SELECT content FROM comments WHERE id = ${id}`);
    expect(row!.content).toBe('first take');
  });

  it('updates the author’s comment with the spec’s (playlist) message', async () => {
    const res = await call(t, 'PATCH', `/comments/${id}`, { as: bob, body: { content: 'second take' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Playlist updated successfully');
    expect(res.body.data).toMatchObject({ _id: id, content: 'second take' });
  });
});

describe('DELETE /comments/{id}', () => {
  it('answers 401, 404 and 403 without deleting', async () => {
    const id = (await post(`/comments/video/${videoId}`, 'keep me')).body.data._id;
    const carol = await createUser(t.ctx);
    expectError(await call(t, 'DELETE', `/comments/${id}`), 401, 'Please login to comment');
    expectError(await call(t, 'DELETE', `/comments/${MISSING_ID}`, { as: bob }), 404);
    // Neither the author nor the video's owner (creator moderation: creator-moderation.test.ts).
    expectError(await call(t, 'DELETE', `/comments/${id}`, { as: carol }), 403);
    expectError(await call(t, 'DELETE', `/comments/bad-id`, { as: bob }), 400);
    expect(await rows(t, sql`SELECT id FROM comments WHERE id = ${id}`)).toHaveLength(1);
  });

  it('removes a 3-level subtree with its likes, answering deletedCount; counters drop by exactly that', async () => {
    const video = (await createVideo(t.ctx, alice)).id;
    const root = (await post(`/comments/video/${video}`, 'root')).body.data._id;
    const keep = (await post(`/comments/video/${video}`, 'other thread')).body.data._id;
    const a = (await post(`/comments/video/${video}/${root}`, 'a', alice)).body.data._id;
    const b = (await post(`/comments/video/${video}/${root}`, 'b', alice)).body.data._id;
    const a1 = (await post(`/comments/video/${video}/${a}`, 'a1')).body.data._id;
    await post(`/comments/video/${video}/${a1}`, 'a1x', alice);
    await call(t, 'POST', `/likes/comment/${a1}/like`, { as: alice });
    await call(t, 'POST', `/likes/comment/${b}/dislike`, { as: bob });
    await call(t, 'POST', `/likes/comment/${keep}/like`, { as: bob });
    expect(await countOf('videos', video)).toBe(6);

    // Deleting a mid-level reply: its parent's replies count drops by one.
    const mid = await call(t, 'DELETE', `/comments/${a1}`, { as: bob });
    expect(mid.status).toBe(200);
    expect(mid.body.data.deletedCount).toBe(2);
    expect(await countOf('videos', video)).toBe(4);
    const [aRow] = await rows<{ replies_count: number }>(t, sql`SELECT replies_count FROM comments WHERE id = ${a}`);
    expect(aRow!.replies_count).toBe(0);

    await post(`/comments/video/${video}/${a}`, 'a2');
    const res = await call(t, 'DELETE', `/comments/${root}`, { as: bob });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Comment deleted successfully', data: { _id: root, deletedCount: 4 } });
    expect(await countOf('videos', video)).toBe(1);
    const left = await rows<{ id: string }>(t, sql`SELECT id FROM comments WHERE video_id = ${video}`);
    expect(left.map((r) => r.id)).toEqual([keep]);
    const orphans = await rows(t, sql`SELECT c.id FROM comments c LEFT JOIN comments p ON p.id = c.parent_id WHERE c.parent_id IS NOT NULL AND p.id IS NULL`);
    expect(orphans).toEqual([]);
    const likeRows = await rows<{ comment_id: string }>(
      t,
      sql`SELECT l.comment_id FROM likes l JOIN comments c ON c.id = l.comment_id WHERE c.video_id = ${video}`,
    );
    expect(likeRows.map((r) => r.comment_id)).toEqual([keep]);
    expect(await rows(t, sql`SELECT id FROM likes WHERE comment_id IS NOT NULL AND comment_id NOT IN (SELECT id FROM comments)`)).toEqual([]);
  });
});
