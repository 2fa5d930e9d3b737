import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@glimpse/contract';
import { createWorker } from '../../worker.ts';
import { RateLimitsRepository } from '../../lib/rate-limits.repository.ts';
import { newId } from '../../lib/ids.ts';
import type { LocalStorage } from '../../storage/local-storage.ts';
import type { UserRow } from '../users/users.repository.ts';
import { call, expectError, rows } from '../../../test/http.ts';
import {
  bearer,
  createClipApp,
  createUser,
  memoryLog,
  multipartInject,
  postChunk,
  readOutbox,
  TEST_PASSWORD,
  TINY_PNG,
  uploadVideo,
  type TestContext,
} from '../../../test/harness.ts';

let t: TestContext & { clip: Buffer };
beforeAll(async () => {
  t = await createClipApp();
});
afterAll(() => t.close());

const drain = () => createWorker(t.ctx, memoryLog()).drain();
const png = () => new Blob([TINY_PNG], { type: 'image/png' });
async function postTweet(headers: Record<string, string>, content: string, image?: Blob): Promise<string> {
  const form = new FormData();
  form.append('content', content);
  if (image) form.append('image', image, 'a.png');
  const res = await multipartInject(t.app, { method: 'POST', url: '/api/v1/tweets', headers, form });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data._id as string;
}
const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(t, q))[0]!.n;

/**
 * Every row of every table that names one of `ids`: uuid columns by equality, text and json
 * columns by containment (rate-limit keys, job payloads). Read from the catalogue, so a table
 * added later is covered without changing this test.
 */
async function rowsNaming(ids: string[]): Promise<string[]> {
  const columns = await rows<{ table_name: string; column_name: string; data_type: string }>(
    t,
    sql`SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('uuid', 'text', 'jsonb', 'json', 'ARRAY')`,
  );
  const found: string[] = [];
  for (const c of columns) {
    for (const id of ids) {
      const n = await count(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(c.table_name)} WHERE ${sql.identifier(c.column_name)}::text LIKE ${`%${id}%`}`,
      );
      if (n > 0) found.push(`${c.table_name}.${c.column_name} (${n})`);
    }
  }
  return found;
}

/** Stored files (upload chunks included: ADR 018) whose path names one of `ids`. */
async function filesNaming(ids: string[]): Promise<string[]> {
  const root = (t.ctx.storage as LocalStorage).root;
  const stored = existsSync(root) ? await readdir(root, { recursive: true }) : [];
  return stored.filter((f) => ids.some((id) => f.includes(id)));
}

/** Every denormalised counter equals its rows, across the whole database (comment counters: published ones). */
async function countersDrift(): Promise<number> {
  const reactions = (table: string, column: string) =>
    count(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} t WHERE
            t.likes <> (SELECT count(*) FROM likes l WHERE ${sql.raw(`l.${column}`)} = t.id AND l.value = 1)
         OR t.dislikes <> (SELECT count(*) FROM likes l WHERE ${sql.raw(`l.${column}`)} = t.id AND l.value = -1)`,
    );
  return (
    (await reactions('videos', 'video_id')) +
    (await reactions('tweets', 'tweet_id')) +
    (await reactions('comments', 'comment_id')) +
    (await count(sql`SELECT count(*)::int AS n FROM videos v WHERE v.comments_count <> (SELECT count(*) FROM comments c WHERE c.video_id = v.id AND c.review_state = 'published')`)) +
    (await count(sql`SELECT count(*)::int AS n FROM tweets v WHERE v.comments_count <> (SELECT count(*) FROM comments c WHERE c.tweet_id = v.id AND c.review_state = 'published')`)) +
    (await count(sql`SELECT count(*)::int AS n FROM comments p WHERE p.replies_count <> (SELECT count(*) FROM comments c WHERE c.parent_id = p.id AND c.review_state = 'published')`)) +
    (await count(sql`SELECT count(*)::int AS n FROM users u WHERE u.subscriber_count <> (SELECT count(*) FROM subscriptions s WHERE s.channel_id = u.id)`))
  );
}

/**
 * An account with something in every table, tangled with another account's content both ways:
 * a transcoded video, a tweet with an image, avatar and cover, comments and replies on both sides,
 * likes on both sides, subscriptions both ways, playlists, history, an unfinished upload, mail
 * tokens, a rate-limit window. Answers the ids the account's rows carry.
 */
async function busyAccount(other: UserRow) {
  const user = await createUser(t.ctx);
  const auth = await bearer(t.ctx, user);
  const otherAuth = await bearer(t.ctx, other);
  const as = (u: UserRow) => ({ as: u });

  const up = await uploadVideo(t.app, auth, t.clip, 'Mine');
  const videoId = up.json().data.video._id as string;
  await drain();
  await call(t, 'PATCH', `/videos/${videoId}/publish`, { ...as(user), body: { isPublished: true } });
  const tweetId = await postTweet(auth, 'hello', png());
  for (const kind of ['avatar', 'cover-image']) {
    const form = new FormData();
    form.append('image', png(), 'a.png');
    expect((await multipartInject(t.app, { method: 'PATCH', url: `/api/v1/users/${kind}`, headers: auth, form })).statusCode).toBe(200);
  }

  // The other account's video and tweet, which the account comments on and reacts to.
  const theirUp = await uploadVideo(t.app, otherAuth, t.clip, 'Theirs');
  const theirVideo = theirUp.json().data.video._id as string;
  await drain();
  await call(t, 'PATCH', `/videos/${theirVideo}/publish`, { ...as(other), body: { isPublished: true } });
  const theirTweet = await postTweet(otherAuth, 'theirs');
  const theirComment = (await call(t, 'POST', `/comments/video/${theirVideo}`, { ...as(other), body: { content: 'top' } })).body.data._id as string;
  const myReply = (await call(t, 'POST', `/comments/video/${theirVideo}/${theirComment}`, { ...as(user), body: { content: 'mine' } })).body.data._id as string;
  const replyToMine = (await call(t, 'POST', `/comments/video/${theirVideo}/${myReply}`, { ...as(other), body: { content: 'under mine' } })).body.data._id as string;
  const myTweetComment = (await call(t, 'POST', `/comments/tweet/${theirTweet}`, { ...as(user), body: { content: 'on tweet' } })).body.data._id as string;
  const theirOnMine = (await call(t, 'POST', `/comments/video/${videoId}`, { ...as(other), body: { content: 'on yours' } })).body.data._id as string;
  // A reply held for review (a watched word): the counters leave it out, before and after.
  const admin = await createUser(t.ctx, { role: 'admin' });
  await call(t, 'POST', '/admin/watched-words', { ...as(admin), body: { word: 'zorblax' } });
  const myHeld = (await call(t, 'POST', `/comments/video/${theirVideo}/${theirComment}`, { ...as(user), body: { content: 'zorblax here' } })).body.data;
  expect(myHeld.state ?? myHeld.reviewState).toBe('held');
  // Moderation records both ways: the account reports the other's video; the other reports the
  // account's video, tweet and channel; a moderator acts on the account (written to the log).
  expect((await call(t, 'POST', '/reports', { ...as(user), body: { targetKind: 'video', targetId: theirVideo, reason: 'spam' } })).status).toBe(201);
  for (const [targetKind, targetId] of [['video', videoId], ['tweet', tweetId], ['channel', user.id]]) {
    expect((await call(t, 'POST', '/reports', { ...as(other), body: { targetKind, targetId, reason: 'spam' } })).status).toBe(201);
  }
  expect((await call(t, 'POST', `/moderation/targets/tweet/${tweetId}/take-down`, { ...as(admin), body: { reason: 'Spam' } })).status).toBe(200);
  await t.ctx.db.execute(sql`DELETE FROM users WHERE id = ${admin.id}`);
  await t.ctx.db.execute(sql`DELETE FROM watched_words`);
  for (const [type, id] of [['video', theirVideo], ['tweet', theirTweet], ['comment', theirComment]]) {
    expect((await call(t, 'POST', `/likes/${type}/${id}/like`, as(user))).status).toBe(200);
  }
  await call(t, 'POST', `/likes/video/${videoId}/dislike`, as(other));
  await call(t, 'POST', `/likes/comment/${myReply}/like`, as(other));
  await call(t, 'POST', `/subscriptions/toggle/${other.id}`, as(user));
  await call(t, 'POST', `/subscriptions/toggle/${user.id}`, as(other));
  const playlist = (await call(t, 'POST', '/playlists', { ...as(user), body: { name: 'Mine', videoId: theirVideo } })).body.data.playlist._id as string;
  await call(t, 'POST', '/playlists', { ...as(other), body: { name: 'Theirs', videoId } });
  await call(t, 'POST', `/videos/${theirVideo}/views`, { ...as(user), body: {} });
  await call(t, 'POST', `/videos/${videoId}/views`, { ...as(other), body: {} });
  // An unfinished upload (chunks in the storage), a reset mail's token and job, a rate-limit window.
  expect((await postChunk(t.app, auth, { uniqueId: 'half', chunkNumber: 0, totalChunks: 2 }, t.clip.subarray(0, 1000))).statusCode).toBe(200);
  await call(t, 'POST', '/auths/forgot-password-mail', { body: { email: user.email } });
  await new RateLimitsRepository(t.ctx.db).hit(`password-change ${user.id}`, 60_000);
  // A live with its thumbnail and the files its last session left.
  await t.ctx.settings.update({ livesEnabled: true });
  const liveId = (await call(t, 'POST', '/lives', { ...as(user), body: { title: 'My show' } })).body.data.live._id as string;
  const image = new FormData();
  image.append('image', new Blob([TINY_PNG]), 'poster.png');
  expect((await call(t, 'PUT', `/lives/${liveId}/thumbnail`, { ...as(user), body: image })).status).toBe(200);
  await t.ctx.storage.putBuffer(`lives/${liveId}/${newId()}/360p/seg_000001.ts`, Buffer.alloc(100));

  return {
    user,
    ids: [user.id, videoId, tweetId, myReply, replyToMine, myTweetComment, theirOnMine, myHeld._id as string, playlist, liveId],
    kept: { theirVideo, theirTweet, theirComment },
  };
}

describe('DELETE /users/me', () => {
  it('with a wrong password: 400 and nothing changes', async () => {
    const user = await createUser(t.ctx);
    const res = await call(t, 'DELETE', '/users/me', { as: user, body: { password: 'not-it' } });
    expectError(res, 400, accountMessages.passwordWrong);
    expect((await call(t, 'GET', '/users/me', { as: user })).status).toBe(200);
    expectError(await call(t, 'DELETE', '/users/me', { as: user, body: {} }), 400, 'Please enter your password');
    expectError(await call(t, 'DELETE', '/users/me', { body: { password: TEST_PASSWORD } }), 401);
  });

  it('leaves no row and no file of the account, corrects the counters of what others own, and mails the account', async () => {
    const other = await createUser(t.ctx);
    const { user, ids, kept } = await busyAccount(other);
    const login = await call(t, 'POST', '/auths/login', { body: { email: user.email, password: TEST_PASSWORD } });
    const refreshToken = login.body.data.refreshToken as string;
    expect(await rowsNaming(ids)).not.toEqual([]);
    expect(await filesNaming(ids)).not.toEqual([]);
    expect(await countersDrift()).toBe(0);

    const res = await call(t, 'DELETE', '/users/me', { as: user, body: { password: TEST_PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Your account was deleted');
    await drain();

    expect(await rowsNaming(ids)).toEqual([]);
    expect(await filesNaming(ids)).toEqual([]);
    expect(await countersDrift()).toBe(0);
    // The other account's content stays (the thread under their comment lost only the deleted branch).
    const [theirs] = await rows<{ likes: number; comments_count: number }>(t, sql`SELECT likes, comments_count FROM videos WHERE id = ${kept.theirVideo}`);
    expect(theirs).toEqual({ likes: 0, comments_count: 1 });
    expect((await rows(t, sql`SELECT id FROM tweets WHERE id = ${kept.theirTweet}`)).length).toBe(1);
    expect((await rows<{ subscriber_count: number }>(t, sql`SELECT subscriber_count FROM users WHERE id = ${other.id}`))[0]!.subscriber_count).toBe(0);

    // Sessions are gone: the access token finds no account, the refresh token no session.
    expectError(await call(t, 'GET', '/users/me', { as: user }), 401);
    expectError(await call(t, 'POST', '/auths/refresh-token', { body: { refreshToken } }), 401);
    const mail = (await readOutbox(t.dataDir)).filter((m) => m.to === user.email).at(-1);
    expect(mail).toMatchObject({ subject: 'Your account was deleted' });
    expect(mail!.text).toContain('Your account was deleted, as you asked.');
  });

  it('refuses the last admin (409), and lets an admin go while another remains', async () => {
    const { count: admins } = (await rows<{ count: number }>(t, sql`SELECT count(*)::int AS count FROM users WHERE role = 'admin'`))[0]!;
    expect(admins).toBe(0);
    const only = await createUser(t.ctx, { role: 'admin' });
    expectError(await call(t, 'DELETE', '/users/me', { as: only, body: { password: TEST_PASSWORD } }), 409, accountMessages.lastAdmin);
    expect((await call(t, 'GET', '/users/me', { as: only })).status).toBe(200);
    const second = await createUser(t.ctx, { role: 'admin' });
    expect((await call(t, 'DELETE', '/users/me', { as: only, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expectError(await call(t, 'DELETE', '/users/me', { as: second, body: { password: TEST_PASSWORD } }), 409, accountMessages.lastAdmin);
    await t.ctx.db.execute(sql`DELETE FROM users WHERE id = ${second.id}`);
  });
});

describe('DELETE /admin/users/:userId', () => {
  it('an admin deletes an account the same way; refusals change nothing', async () => {
    const admin = await createUser(t.ctx, { role: 'admin' });
    const moderator = await createUser(t.ctx, { role: 'moderator' });
    const other = await createUser(t.ctx);
    const { user, ids } = await busyAccount(other);

    expectError(await call(t, 'DELETE', `/admin/users/${user.id}`), 401);
    expectError(await call(t, 'DELETE', `/admin/users/${user.id}`, { as: other }), 403);
    expectError(await call(t, 'DELETE', `/admin/users/${user.id}`, { as: moderator }), 403);
    expectError(await call(t, 'DELETE', `/admin/users/${admin.id}`, { as: admin }), 400, accountMessages.notYourselfHere);
    expectError(await call(t, 'DELETE', '/admin/users/01900000-0000-7000-8000-000000000000', { as: admin }), 404, accountMessages.userNotFound);
    expectError(await call(t, 'DELETE', '/admin/users/not-an-id', { as: admin }), 400);
    expect((await call(t, 'GET', '/users/me', { as: user })).status).toBe(200);

    const res = await call(t, 'DELETE', `/admin/users/${user.id}`, { as: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Account deleted');
    await drain();
    expect(await rowsNaming(ids)).toEqual([]);
    expect(await filesNaming(ids)).toEqual([]);
    expect(await countersDrift()).toBe(0);
    const mail = (await readOutbox(t.dataDir)).filter((m) => m.to === user.email).at(-1);
    expect(mail!.text).toContain('An administrator deleted your account.');
    await t.ctx.db.execute(sql`DELETE FROM users WHERE id = ${admin.id}`);
  });
});

describe('GET /users/me/export', () => {
  it('is a JSON attachment of the account\'s own data, with nothing private of anyone else', async () => {
    const other = await createUser(t.ctx);
    const { user, kept } = await busyAccount(other);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/users/me/export', headers: await bearer(t.ctx, user) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="glimpse-${user.userName}.json"`);
    const data = res.json();
    expect(data.profile).toMatchObject({ id: user.id, userName: user.userName, email: user.email, fullName: user.fullName });
    expect(data.profile.avatar).toMatch(/^\/media\/users\//);
    expect(data.videos.map((v: { title: string }) => v.title)).toEqual(['Mine']);
    expect(data.videos[0].storageBytes).toBeGreaterThan(t.clip.length);
    expect(data.tweets).toMatchObject([{ content: 'hello', hasImage: true }]);
    expect(data.comments.map((c: { content: string }) => c.content).sort()).toEqual(['mine', 'on tweet', 'zorblax here']);
    expect(data.playlists).toMatchObject([{ name: 'Mine', videoIds: [kept.theirVideo] }]);
    expect(data.watchHistory).toMatchObject([{ videoId: kept.theirVideo }]);
    expect(data.likes.map((l: { reaction: string }) => l.reaction)).toEqual(['like', 'like', 'like']);
    expect(data.subscriptions).toMatchObject([{ channelId: other.id, userName: other.userName }]);
    expect(res.body).not.toContain(other.email);
    expect(res.body).not.toContain('under mine');
    expectError(await call(t, 'GET', '/users/me/export'), 401, 'Please login to download your data');
  });
});
