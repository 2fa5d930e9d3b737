import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTweet, createUser, createVideo, makeClip, postChunk, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

/** Issue #12 items 5 and 6: watched words, held content, and creators moderating their own space. */
let t: TestContext;
let admin: UserRow;
let moderator: UserRow;
let creator: UserRow;
let fan: UserRow;
let stranger: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t.ctx, { role: 'admin' });
  moderator = await createUser(t.ctx, { role: 'moderator' });
  creator = await createUser(t.ctx, { fullName: 'Creator' });
  fan = await createUser(t.ctx, { fullName: 'Fan' });
  stranger = await createUser(t.ctx, { fullName: 'Stranger' });
  for (const word of ['spoiler', 'bad apple']) expect((await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word } })).status).toBe(201);
});
afterAll(() => t.close());

const comment = (as: UserRow, url: string, content: string) => call(t, 'POST', `/comments/${url}`, { as, body: { content } });
const listed = async (url: string, as?: UserRow) => {
  const res = await call(t, 'GET', `/comments/${url}`, { as });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.comments as { _id: string }[]).map((c) => c._id);
};
const count = async (table: 'videos' | 'tweets', id: string) =>
  (await rows<{ n: number }>(t, sql`SELECT comments_count AS n FROM ${sql.identifier(table)} WHERE id = ${id}`))[0]!.n;
const repliesOf = async (id: string) => (await rows<{ n: number }>(t, sql`SELECT replies_count AS n FROM comments WHERE id = ${id}`))[0]!.n;

describe('watched words (admin list)', () => {
  it('adds, lists alphabetically, refuses a case-insensitive duplicate, an over-long word and a blank one, and removes', async () => {
    const added = await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word: '  Zebra crossing ' } });
    expect(added.status).toBe(201);
    expect(added.body.data.word).toBe('Zebra crossing');
    expectError(await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word: 'zebra CROSSING' } }), 409, 'This word is already watched');
    expectError(await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word: 'x'.repeat(101) } }), 400, 'A watched word must be at most 100 characters');
    expectError(await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word: '   ' } }), 400, 'Enter a word or phrase');
    const list = await call(t, 'GET', '/admin/watched-words', { as: admin });
    expect(list.body.data.words.map((w: { word: string }) => w.word)).toEqual(['bad apple', 'spoiler', 'Zebra crossing']);
    expect((await call(t, 'DELETE', `/admin/watched-words/${added.body.data._id}`, { as: admin })).status).toBe(200);
    expectError(await call(t, 'DELETE', `/admin/watched-words/${added.body.data._id}`, { as: admin }), 404, 'Watched word not found');
    expectError(await call(t, 'GET', '/admin/watched-words', { as: moderator }), 403);
  });

  it('matches a pathological regex-like word literally, at once after it is added', async () => {
    const word = 'a.*(b+)+$';
    const added = (await call(t, 'POST', '/admin/watched-words', { as: admin, body: { word } })).body.data;
    const video = await createVideo(t.ctx, creator);
    const literal = await comment(fan, `video/${video.id}`, `look: ${word}`);
    expect(literal.body.data.state).toBe('held');
    const lookalike = await comment(fan, `video/${video.id}`, `a${'b'.repeat(900)}`);
    expect(lookalike.body.data.state).toBe('published');
    await call(t, 'DELETE', `/admin/watched-words/${added._id}`, { as: admin });
    expect((await comment(fan, `video/${video.id}`, `again ${word}`)).body.data.state).toBe('published');
  });
});

describe('held comments', () => {
  it('holds a comment with a watched word: shown to its author and the video owner only, counted once approved', async () => {
    const video = await createVideo(t.ctx, creator);
    const clean = (await comment(fan, `video/${video.id}`, 'a classy video')).body.data._id;
    const res = await comment(fan, `video/${video.id}`, 'No SPOILER please');
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Your comment is held for review by the channel owner');
    expect(res.body.data).toMatchObject({ state: 'held', pinned: false });
    const held = res.body.data._id;
    expect(await count('videos', video.id)).toBe(1);
    expect(await listed(`video/${video.id}`)).toEqual([clean]);
    expect(await listed(`video/${video.id}`, stranger)).toEqual([clean]);
    expect(await listed(`video/${video.id}`, fan)).toEqual([held, clean]);
    expect(await listed(`video/${video.id}`, creator)).toEqual([held, clean]);
    expect((await call(t, 'GET', `/videos/${video.id}`)).body.data.video.noOfComments).toBe(1);
    // Nobody else can react to it or reply to it.
    expectError(await call(t, 'POST', `/likes/comment/${held}/like`, { as: stranger }), 404);
    expectError(await comment(stranger, `video/${video.id}/${held}`, 'me too'), 404, 'Parent comment not found');
    expectError(await comment(fan, `video/${video.id}/${held}`, 'me too'), 400, 'You can reply once this comment is published');

    const queue = async (as: UserRow) => (await call(t, 'GET', '/comments/held', { as })).body.data.comments.map((c: { _id: string }) => c._id);
    expect(await queue(creator)).toContain(held);
    expect((await call(t, 'GET', '/comments/held', { as: stranger })).body.data.comments).toEqual([]);
    expect((await call(t, 'GET', '/comments/held', { as: fan })).body.data.comments).toEqual([]);

    expectError(await call(t, 'POST', `/comments/${held}/approve`, { as: fan }), 403, 'Only the owner of the video or tweet can review its comments');
    expectError(await call(t, 'POST', `/comments/${held}/approve`, { as: moderator }), 403);
    const approved = await call(t, 'POST', `/comments/${held}/approve`, { as: creator });
    expect(approved.status).toBe(200);
    expect(approved.body.data.state).toBe('published');
    expectError(await call(t, 'POST', `/comments/${held}/approve`, { as: creator }), 400, 'This comment is not held for review');
    expect(await count('videos', video.id)).toBe(2);
    expect(await listed(`video/${video.id}`, stranger)).toEqual([held, clean]);
    expect(await queue(creator)).not.toContain(held);
  });

  it('holds a reply and an edit with a watched word; the counters follow the published ones; the reviewer may delete a held one', async () => {
    const video = await createVideo(t.ctx, creator);
    const parent = (await comment(fan, `video/${video.id}`, 'nice')).body.data._id;
    const reply = (await comment(stranger, `video/${video.id}/${parent}`, 'one bad apple')).body.data;
    expect(reply.state).toBe('held');
    expect([await count('videos', video.id), await repliesOf(parent)]).toEqual([1, 0]);
    expect(await listed(`video/${video.id}/${parent}`, fan)).toEqual([]);
    expect(await listed(`video/${video.id}/${parent}`, stranger)).toEqual([reply._id]);

    const edited = await call(t, 'PATCH', `/comments/${parent}`, { as: fan, body: { content: 'nice, spoiler: he wins' } });
    expect(edited.body).toMatchObject({ message: 'Your comment is held for review by the channel owner', data: { state: 'held' } });
    expect(await count('videos', video.id)).toBe(0);
    expect(await listed(`video/${video.id}`, stranger)).toEqual([]);
    const cleaned = await call(t, 'PATCH', `/comments/${parent}`, { as: fan, body: { content: 'nice indeed' } });
    expect(cleaned.body).toMatchObject({ message: 'Playlist updated successfully', data: { state: 'published' } });
    expect(await count('videos', video.id)).toBe(1);

    const removed = await call(t, 'DELETE', `/comments/${reply._id}`, { as: creator });
    expect(removed.body.data).toEqual({ _id: reply._id, deletedCount: 0 });
    expect([await count('videos', video.id), await repliesOf(parent)]).toEqual([1, 0]);
  });

  it("does not hold the owner's own words on their content; a comment on a tweet is reviewed by the tweet's owner", async () => {
    const video = await createVideo(t.ctx, creator);
    expect((await comment(creator, `video/${video.id}`, 'no spoiler here')).body.data.state).toBe('published');
    const tweet = await createTweet(t.ctx, creator);
    const held = (await comment(fan, `tweet/${tweet.id}`, 'SPOILER!')).body.data._id;
    expect(await count('tweets', tweet.id)).toBe(0);
    expect(await listed(`tweet/${tweet.id}`, stranger)).toEqual([]);
    expect(await listed(`tweet/${tweet.id}`, creator)).toEqual([held]);
    expect((await call(t, 'POST', `/comments/${held}/approve`, { as: creator })).status).toBe(200);
    expect(await count('tweets', tweet.id)).toBe(1);
    expect((await call(t, 'GET', `/tweets/${tweet.id}`)).body.data.tweets[0].comments).toBe(1);
  });
});

describe('held tweets', () => {
  const postTweet = (as: UserRow, content: string) => {
    const form = new FormData();
    form.append('content', content);
    return call(t, 'POST', '/tweets', { as, body: form });
  };

  it('holds a tweet with a watched word: shown to its author and moderators, approved or deleted by a moderator', async () => {
    const res = await postTweet(fan, 'huge spoiler ahead');
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Your tweet is held for review by a moderator');
    const id = res.body.data._id;
    expect(res.body.data.state).toBe('held');
    expectError(await call(t, 'GET', `/tweets/${id}`), 404);
    expectError(await call(t, 'GET', `/tweets/${id}`, { as: stranger }), 404);
    expect((await call(t, 'GET', `/tweets/${id}`, { as: fan })).status).toBe(200);
    expect((await call(t, 'GET', `/tweets/${id}`, { as: moderator })).status).toBe(200);
    const channel = async (as?: UserRow) => (await call(t, 'GET', `/tweets/user/${fan.id}`, { as })).body.data.tweets.map((x: { _id: string }) => x._id);
    expect(await channel(stranger)).not.toContain(id);
    expect(await channel(fan)).toContain(id);
    expectError(await call(t, 'POST', `/likes/tweet/${id}/like`, { as: stranger }), 404);
    expectError(await comment(stranger, `tweet/${id}`, 'hm'), 404, 'Tweet not found');

    const queue = await call(t, 'GET', '/moderation/held-tweets', { as: moderator });
    expect(queue.body.data.tweets.map((x: { _id: string }) => x._id)).toContain(id);
    expectError(await call(t, 'GET', '/moderation/held-tweets', { as: fan }), 403);
    expect((await call(t, 'POST', `/moderation/held-tweets/${id}/approve`, { as: moderator })).body.data.state).toBe('published');
    expect(await channel(stranger)).toContain(id);
    expectError(await call(t, 'DELETE', `/moderation/held-tweets/${id}`, { as: moderator }), 400, 'This tweet is not held for review');

    const second = (await postTweet(fan, 'a BAD APPLE')).body.data._id;
    expect((await call(t, 'DELETE', `/moderation/held-tweets/${second}`, { as: admin })).status).toBe(200);
    expectError(await call(t, 'GET', `/tweets/${second}`, { as: fan }), 404);
    // A moderator's own tweet is not held: they are its reviewer.
    expect((await postTweet(moderator, 'no spoiler')).body.data.state).toBe('published');
  });

  it('holds an edit with a watched word and publishes it again once clean', async () => {
    const id = (await postTweet(fan, 'hello')).body.data._id;
    const edit = (content: string) => {
      const form = new FormData();
      form.append('content', content);
      return call(t, 'PATCH', `/tweets/${id}`, { as: fan, body: form });
    };
    expect((await edit('spoiler alert')).body).toMatchObject({ message: 'Your tweet is held for review by a moderator', data: { state: 'held' } });
    expectError(await call(t, 'GET', `/tweets/${id}`, { as: stranger }), 404);
    expect((await edit('all good')).body.data.state).toBe('published');
    expect((await call(t, 'GET', `/tweets/${id}`, { as: stranger })).status).toBe(200);
  });
});

describe('creators moderate their own space', () => {
  it("lets the owner of a video or tweet delete anyone's comment on it, and nobody else", async () => {
    const video = await createVideo(t.ctx, creator);
    const tweet = await createTweet(t.ctx, creator);
    const onVideo = (await comment(fan, `video/${video.id}`, 'first')).body.data._id;
    const onTweet = (await comment(fan, `tweet/${tweet.id}`, 'first')).body.data._id;
    expectError(await call(t, 'DELETE', `/comments/${onVideo}`, { as: stranger }), 403, 'You can only delete your own comments or comments on your videos and tweets');
    for (const id of [onVideo, onTweet]) expect((await call(t, 'DELETE', `/comments/${id}`, { as: creator })).body.data.deletedCount).toBe(1);
    expect([await count('videos', video.id), await count('tweets', tweet.id)]).toEqual([0, 0]);
  });

  it('pins one top-level comment per video, first in the list; pinning another unpins it', async () => {
    const video = await createVideo(t.ctx, creator);
    const a = (await comment(fan, `video/${video.id}`, 'a')).body.data._id;
    const b = (await comment(stranger, `video/${video.id}`, 'b')).body.data._id;
    const c = (await comment(stranger, `video/${video.id}`, 'c')).body.data._id;
    const reply = (await comment(creator, `video/${video.id}/${a}`, 'thanks')).body.data._id;
    expect(await listed(`video/${video.id}`)).toEqual([c, b, a]);

    expectError(await call(t, 'POST', `/comments/${a}/pin`, { as: fan }), 403, 'Only the owner of the video can pin its comments');
    expectError(await call(t, 'POST', `/comments/${reply}/pin`, { as: creator }), 400, 'Only a published top-level comment on a video can be pinned');
    const pinned = await call(t, 'POST', `/comments/${a}/pin`, { as: creator });
    expect(pinned.body).toMatchObject({ message: 'Comment pinned', data: { _id: a, pinned: true } });
    expect(await listed(`video/${video.id}`)).toEqual([a, c, b]);
    // Keyset pages: the pinned comment heads the first page only and is never repeated.
    const ids = (page: { comments: { _id: string }[] }) => page.comments.map((x) => x._id);
    const page1 = (await call(t, 'GET', `/comments/video/${video.id}?limit=1`)).body.data;
    expect(ids(page1)).toEqual([a, c]);
    const page2 = (await call(t, 'GET', `/comments/video/${video.id}?limit=1&cursor=${page1.nextCursor}`)).body.data;
    expect([ids(page2), page2.hasNextPage]).toEqual([[b], false]);

    await call(t, 'POST', `/comments/${b}/pin`, { as: creator });
    expect(await listed(`video/${video.id}`)).toEqual([b, c, a]);
    const flags = await rows<{ id: string }>(t, sql`SELECT id FROM comments WHERE video_id = ${video.id} AND pinned_at IS NOT NULL`);
    expect(flags.map((r) => r.id)).toEqual([b]);
    // The database itself refuses a second pinned comment.
    await expect(t.ctx.db.execute(sql`UPDATE comments SET pinned_at = now() WHERE id = ${a}`)).rejects.toThrow();

    const unpinned = await call(t, 'DELETE', `/comments/${b}/pin`, { as: creator });
    expect(unpinned.body).toMatchObject({ message: 'Comment unpinned', data: { pinned: false } });
    expect(await listed(`video/${video.id}`)).toEqual([c, b, a]);
  });

  it('turns comments off per video: posting is refused, the list is empty, the video says so; back on shows them again', async () => {
    const video = await createVideo(t.ctx, creator);
    const before = (await comment(fan, `video/${video.id}`, 'early')).body.data._id;
    const off = await call(t, 'PATCH', `/videos/${video.id}`, { as: creator, body: { commentsEnabled: false } });
    expect(off.body.data.video.commentsEnabled).toBe(false);
    expectError(await call(t, 'PATCH', `/videos/${video.id}`, { as: fan, body: { commentsEnabled: true } }), 403);
    expectError(await comment(fan, `video/${video.id}`, 'late'), 403, 'Comments are turned off for this video');
    expectError(await comment(creator, `video/${video.id}/${before}`, 'late'), 403, 'Comments are turned off for this video');
    expect(await listed(`video/${video.id}`)).toEqual([]);
    expect(await listed(`video/${video.id}/${before}`)).toEqual([]);
    expect((await call(t, 'GET', `/videos/${video.id}`)).body.data.video.commentsEnabled).toBe(false);
    await call(t, 'PATCH', `/videos/${video.id}`, { as: creator, body: { commentsEnabled: true } });
    expect(await listed(`video/${video.id}`)).toEqual([before]);
  });

  it('takes the default for new uploads from the instance settings', async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-clip-'));
    try {
      const clip = await readFile(await makeClip(path.join(tmp, 'clip.mp4'), { seconds: 1 }));
      await call(t, 'PATCH', '/admin/settings', { as: admin, body: { commentsEnabledByDefault: false } });
      const res = await postChunk(t.app, await bearer(t.ctx, creator), { uniqueId: 'off-by-default', chunkNumber: 0, totalChunks: 1 }, clip, { isLastChunk: 'true', title: 'Quiet' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.video.commentsEnabled).toBe(false);
    } finally {
      await call(t, 'PATCH', '/admin/settings', { as: admin, body: { commentsEnabledByDefault: true } });
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('blocks a user from commenting on my videos and tweets, lists them, and unblocks', async () => {
    const owner = await createUser(t.ctx, { fullName: 'Blocker' });
    const troll = await createUser(t.ctx, { fullName: 'Troll' });
    const video = await createVideo(t.ctx, owner);
    const tweet = await createTweet(t.ctx, owner);
    const elsewhere = await createVideo(t.ctx, creator);
    expect((await call(t, 'POST', '/channel-blocks', { as: owner, body: { userId: troll.id } })).status).toBe(201);
    expect((await call(t, 'POST', '/channel-blocks', { as: owner, body: { userId: troll.id } })).status).toBe(201);
    expectError(await call(t, 'POST', '/channel-blocks', { as: owner, body: { userId: owner.id } }), 400, 'You cannot block yourself');
    expectError(await call(t, 'POST', '/channel-blocks', { as: owner, body: { userId: MISSING_ID } }), 404, 'User not found');
    expectError(await call(t, 'POST', '/channel-blocks', { body: { userId: troll.id } }), 401);

    expectError(await comment(troll, `video/${video.id}`, 'hi'), 403, 'You cannot comment on this channel');
    expectError(await comment(troll, `tweet/${tweet.id}`, 'hi'), 403, 'You cannot comment on this channel');
    expect((await comment(troll, `video/${elsewhere.id}`, 'hi')).status).toBe(201);
    expect(await count('videos', video.id)).toBe(0);

    const list = await call(t, 'GET', '/channel-blocks', { as: owner });
    expect(list.body.data.blocks).toEqual([expect.objectContaining({ user: expect.objectContaining({ _id: troll.id, fullName: 'Troll' }) })]);
    expect((await call(t, 'GET', '/channel-blocks', { as: troll })).body.data.blocks).toEqual([]);

    expect((await call(t, 'DELETE', `/channel-blocks/${troll.id}`, { as: owner })).status).toBe(200);
    expectError(await call(t, 'DELETE', `/channel-blocks/${troll.id}`, { as: owner }), 404, 'This user is not blocked');
    expect((await comment(troll, `video/${video.id}`, 'hi again')).status).toBe(201);
  });

  it('pages the block list by cursor', async () => {
    const owner = await createUser(t.ctx);
    const blocked: string[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await createUser(t.ctx, { fullName: `Blocked ${i}`, userName: `blocked${i}${Date.now()}`, email: `b${i}${Date.now()}@example.com` });
      blocked.push(u.id);
      await call(t, 'POST', '/channel-blocks', { as: owner, body: { userId: u.id } });
    }
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = (await call(t, 'GET', `/channel-blocks?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { as: owner })).body.data;
      seen.push(...page.blocks.map((b: { user: { _id: string } }) => b.user._id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen.sort()).toEqual(blocked.sort());
  });
});
