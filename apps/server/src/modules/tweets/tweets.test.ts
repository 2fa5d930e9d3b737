import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTweet, createUser, type TestContext } from '../../../test/harness.ts';
import { call, expectError, MISSING_ID, rows } from '../../../test/http.ts';
import type { UserRow } from '../users/users.repository.ts';

let t: TestContext;
let alice: UserRow;
let bob: UserRow;

beforeAll(async () => {
  t = await createTestApp({ MAX_IMAGE_MB: '1' });
  alice = await createUser(t.ctx, { fullName: 'Alice' });
  bob = await createUser(t.ctx, { fullName: 'Bob' });
});
afterAll(() => t.close());

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366ff' } }).png().toBuffer();

function form(fields: Record<string, string>, image?: { body: Buffer; name?: string; type?: string }): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (image) data.append('image', new Blob([new Uint8Array(image.body)], { type: image.type ?? 'image/png' }), image.name ?? 'pic.png');
  return data;
}

const mediaPath = (url: string) => path.join(t.dataDir, 'media', url.replace(/^\/media\//, ''));
const tweetRows = async () => (await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM tweets`))[0]!.n;

describe('POST /tweets', () => {
  it('answers 401 when anonymous', async () => {
    expectError(await call(t, 'POST', '/tweets', { body: form({ content: 'hi' }) }), 401, 'Please login to post a tweet');
  });

  it('rejects blank, over-long, non-multipart and non-image input; stores nothing', async () => {
    const before = await tweetRows();
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({ content: '   ' }) }), 400, 'Tweet content is required');
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({}) }), 400, 'Tweet content is required');
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'x'.repeat(1001) }) }), 400, /at most 1000/);
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: { content: 'json' } }), 400, 'Expected a multipart/form-data body');
    const text = { body: Buffer.from('not an image at all'), name: 'fake.png' };
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'hi' }, text) }), 400, 'Only png and jpeg images are allowed');
    const broken = { body: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]) };
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'hi' }, broken) }), 400, 'The image could not be read');
    const big = { body: Buffer.concat([await png(10, 10), Buffer.alloc(1024 * 1024 + 10)]) };
    expectError(await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'hi' }, big) }), 413, 'File size should not exceed 1MB');
    expect(await tweetRows()).toBe(before);
  });

  it('creates a trimmed tweet without an image', async () => {
    const res = await call(t, 'POST', '/tweets', { as: alice, body: form({ content: '  Hello world  ' }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      content: 'Hello world',
      image: null,
      likes: 0,
      dislikes: 0,
      comments: 0,
      likeStatus: 0,
      owner: { _id: alice.id, fullName: 'Alice', userName: alice.userName },
    });
    expect(Date.parse(res.body.data.createdAt)).not.toBeNaN();
    expect(Date.parse(res.body.data.updatedAt)).not.toBeNaN();
  });

  it('stores a resized image under tweets/{id}/', async () => {
    const res = await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'pic' }, { body: await png(3000, 300) }) });
    expect(res.status).toBe(201);
    const url: string = res.body.data.image.url;
    expect(url).toMatch(new RegExp(`^/media/tweets/${res.body.data._id}/[0-9a-f-]+\\.png$`));
    const meta = await sharp(mediaPath(url)).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({ width: 1280, height: 128, format: 'png' });
  });
});

describe('PATCH /tweets/{id}', () => {
  let id: string;
  let imageUrl: string;
  beforeAll(async () => {
    const res = await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'original' }, { body: await png(20, 20) }) });
    id = res.body.data._id;
    imageUrl = res.body.data.image.url;
  });

  it('answers 401, 404, 403 and 400 and leaves the tweet as it was', async () => {
    expectError(await call(t, 'PATCH', `/tweets/${id}`, { body: form({ content: 'x' }) }), 401);
    expectError(await call(t, 'PATCH', `/tweets/${MISSING_ID}`, { as: alice, body: form({ content: 'x' }) }), 404, 'Tweet not found');
    expectError(await call(t, 'PATCH', `/tweets/nope`, { as: alice, body: form({ content: 'x' }) }), 400, 'Invalid id');
    expectError(await call(t, 'PATCH', `/tweets/${id}`, { as: bob, body: form({ content: 'x' }) }), 403);
    expectError(await call(t, 'PATCH', `/tweets/${id}`, { as: alice, body: form({ content: '  ' }) }), 400, 'Tweet content is required');
    expectError(await call(t, 'PATCH', `/tweets/${id}`, { as: alice, body: form({}) }), 400, 'Send new content or a new image');
    const [row] = await rows<{ content: string }>(t, sql`SELECT content FROM tweets WHERE id = ${id}`);
    expect(row!.content).toBe('original');
  });

  it('updates content and replaces the image, removing the old file', async () => {
    const res = await call(t, 'PATCH', `/tweets/${id}`, { as: alice, body: form({ content: ' edited ' }, { body: await png(30, 30) }) });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Tweet updated successfully');
    expect(res.body.data.content).toBe('edited');
    expect(res.body.data.image.url).not.toBe(imageUrl);
    expect(existsSync(mediaPath(res.body.data.image.url))).toBe(true);
    expect(existsSync(mediaPath(imageUrl))).toBe(false);
  });
});

describe('DELETE /tweets/{id}', () => {
  it('answers 401, 404 and 403 without deleting', async () => {
    const tweet = await createTweet(t.ctx, alice);
    expectError(await call(t, 'DELETE', `/tweets/${tweet.id}`), 401);
    expectError(await call(t, 'DELETE', `/tweets/${MISSING_ID}`, { as: alice }), 404, 'Tweet not found');
    expectError(await call(t, 'DELETE', `/tweets/${tweet.id}`, { as: bob }), 403);
    expect(await rows(t, sql`SELECT id FROM tweets WHERE id = ${tweet.id}`)).toHaveLength(1);
  });

  it('deletes the tweet with its comments, their likes and its image', async () => {
    const created = await call(t, 'POST', '/tweets', { as: alice, body: form({ content: 'doomed' }, { body: await png(20, 20) }) });
    const id = created.body.data._id;
    const c1 = (await call(t, 'POST', `/comments/tweet/${id}`, { as: bob, body: { content: 'one' } })).body.data._id;
    await call(t, 'POST', `/comments/tweet/${id}/${c1}`, { as: alice, body: { content: 'two' } });
    await call(t, 'POST', `/likes/comment/${c1}/like`, { as: alice });
    await call(t, 'POST', `/likes/tweet/${id}/like`, { as: bob });

    const res = await call(t, 'DELETE', `/tweets/${id}`, { as: alice });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Tweet deleted successfully', data: { _id: id, deletedCount: 2 } });
    expect(await rows(t, sql`SELECT id FROM comments WHERE tweet_id = ${id}`)).toEqual([]);
    expect(await rows(t, sql`SELECT id FROM likes WHERE tweet_id = ${id} OR comment_id = ${c1}`)).toEqual([]);
    expect(existsSync(path.join(t.dataDir, 'media', 'tweets', id))).toBe(false);
    expectError(await call(t, 'GET', `/tweets/${id}`), 404);
  });
});

describe('GET tweets', () => {
  let carol: UserRow;
  const ids: string[] = [];
  beforeAll(async () => {
    carol = await createUser(t.ctx);
    for (let i = 0; i < 3; i++) ids.push((await call(t, 'POST', '/tweets', { as: carol, body: form({ content: `t${i}` }) })).body.data._id);
    await call(t, 'POST', `/likes/tweet/${ids[2]}/like`, { as: bob });
    await call(t, 'POST', `/comments/tweet/${ids[2]}`, { as: bob, body: { content: 'c' } });
  });

  it('answers 404 for an unknown channel or tweet and 400 for malformed ids', async () => {
    expectError(await call(t, 'GET', `/tweets/user/${MISSING_ID}`), 404, 'Channel not found');
    expectError(await call(t, 'GET', `/tweets/user/nope`), 400, 'Invalid id');
    expectError(await call(t, 'GET', `/tweets/${MISSING_ID}`), 404, 'Tweet not found');
    expectError(await call(t, 'GET', `/tweets/nope`), 400, 'Invalid id');
  });

  it('lists a channel’s tweets newest first, paginated, with counts and the viewer’s likeStatus', async () => {
    const res = await call(t, 'GET', `/tweets/user/${carol.id}?limit=2`, { as: bob });
    expect(res.status).toBe(200);
    const { tweets, hasNextPage, nextCursor } = res.body.data;
    expect(tweets.map((x: { content: string }) => x.content)).toEqual(['t2', 't1']);
    expect(tweets[0]).toMatchObject({ likes: 1, dislikes: 0, comments: 1, likeStatus: 1, owner: { _id: carol.id } });
    expect(hasNextPage).toBe(true);
    const rest = await call(t, 'GET', `/tweets/user/${carol.id}?limit=2&cursor=${nextCursor}`);
    expect(rest.body.data.tweets.map((x: { content: string }) => x.content)).toEqual(['t0']);
  });

  it('ignores the optional userId path part for identity', async () => {
    const anon = await call(t, 'GET', `/tweets/user/${carol.id}/${bob.id}`);
    expect(anon.status).toBe(200);
    expect(anon.body.data.tweets[0].likeStatus).toBe(0);
    const one = await call(t, 'GET', `/tweets/${ids[2]}/${bob.id}`);
    expect(one.body.data.tweets).toHaveLength(1);
    expect(one.body.data.tweets[0]).toMatchObject({ _id: ids[2], likeStatus: 0, comments: 1 });
    const mine = await call(t, 'GET', `/tweets/${ids[2]}`, { as: bob });
    expect(mine.body.data.tweets[0].likeStatus).toBe(1);
  });
});
