import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@glimpse/contract';
import {
  bearer,
  createTestApp,
  createUser,
  createVideo,
  expectApiError,
  multipartBody,
  TEST_PASSWORD,
  type FilePart,
  type TestContext,
} from '../../../test/harness.ts';
import { subscriptions, users } from '../../db/schema.ts';
import type { UserRow } from './users.repository.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const reload = async (user: UserRow) => (await t.ctx.db.select().from(users).where(eq(users.id, user.id)))[0]!;

const patch = async (url: string, payload: unknown, user?: UserRow, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/v1${url}`,
    payload: payload as object,
    headers: { ...(user ? await bearer(t.ctx, user) : {}), ...headers },
  });

describe('PATCH /users/me', () => {
  it('answers 401 when anonymous', async () => {
    expectApiError(await patch('/users/me', { fullName: 'A', userName: 'a' }), 401);
  });

  it('answers 400 for bad input and changes nothing', async () => {
    const user = await createUser(t.ctx, { fullName: 'Keep Me' });
    expectApiError(await patch('/users/me', { fullName: ' ', userName: 'ok' }, user), 400, messages.fullNameRequired);
    expectApiError(await patch('/users/me', { fullName: 'Ok', userName: '' }, user), 400, messages.userNameRequired);
    expectApiError(await patch('/users/me', { fullName: 'Ok', userName: 'has space' }, user), 400);
    expectApiError(await patch('/users/me', { fullName: 'Ok', userName: '<script>' }, user), 400);
    expectApiError(await patch('/users/me', { fullName: 'Ok', userName: 'u'.repeat(31) }, user), 400);
    expectApiError(await patch('/users/me', { fullName: 'x'.repeat(61), userName: 'ok' }, user), 400);
    expectApiError(await patch('/users/me', { fullName: ['x'], userName: 'ok' }, user), 400);
    // The full name goes into mails: one line, no control characters.
    for (const fullName of ['Eve\r\nBcc: all@example.com', 'Eve\nSmith', 'Eve\tSmith', 'Eve\u0085Smith', 'Eve\u2028Smith', 'Eve\u001bSmith']) {
      expectApiError(await patch('/users/me', { fullName, userName: 'ok' }, user), 400);
    }
    expectApiError(await patch('/users/me', '{"fullName"', user, { 'content-type': 'application/json' }), 400);
    const after = await reload(user);
    expect(after).toMatchObject({ fullName: 'Keep Me', userName: user.userName });
  });

  it('answers 409 with a free suggestion when the user name is taken', async () => {
    await createUser(t.ctx, { userName: 'taken' });
    await createUser(t.ctx, { userName: 'taken1' });
    const user = await createUser(t.ctx);
    const res = await patch('/users/me', { fullName: 'New Name', userName: '@Taken' }, user);
    expectApiError(res, 409, messages.userNameTaken);
    expect(res.json().data).toEqual({ availableUserName: 'taken2' });
    expect((await reload(user)).fullName).not.toBe('New Name');
  });

  it('updates the names (handle without @, lower-cased) and keeps an unchanged handle', async () => {
    const user = await createUser(t.ctx);
    const res = await patch('/users/me', { _id: 'ignored', fullName: '  Renamed Person ', userName: '@Renamed.Person' }, user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: messages.changesUpdated,
      data: { user: { _id: user.id, fullName: 'Renamed Person', userName: 'renamed.person', email: user.email } },
    });
    const same = await patch('/users/me', { fullName: 'Renamed Again', userName: 'renamed.person' }, user);
    expect(same.statusCode).toBe(200);
    expect((await reload(user)).fullName).toBe('Renamed Again');
  });
});

describe('PATCH /users/password', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    curPassword: TEST_PASSWORD,
    newPassword: 'changed-pass',
    confirmPassword: 'changed-pass',
    ...over,
  });
  const login = async (email: string, password = TEST_PASSWORD) =>
    (await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email, password } })).json().data as {
      accessToken: string;
      refreshToken: string;
    };
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auths/refresh-token', payload: { refreshToken } });

  it('answers 401 when anonymous', async () => {
    expectApiError(await patch('/users/password', body()), 401);
  });

  it('answers 400 for bad input, a wrong current password or an unchanged password', async () => {
    const user = await createUser(t.ctx);
    expectApiError(await patch('/users/password', body({ curPassword: '' }), user), 400, messages.curPasswordRequired);
    expectApiError(await patch('/users/password', body({ newPassword: '123', confirmPassword: '123' }), user), 400, messages.newPasswordMin);
    expectApiError(await patch('/users/password', body({ confirmPassword: 'different' }), user), 400, messages.passwordsMustMatch);
    expectApiError(await patch('/users/password', body({ newPassword: 'p'.repeat(129) }), user), 400);
    expectApiError(await patch('/users/password', body({ curPassword: 'wrong-one' }), user), 400, messages.curPasswordWrong);
    expectApiError(
      await patch('/users/password', body({ newPassword: TEST_PASSWORD, confirmPassword: TEST_PASSWORD }), user),
      400,
      messages.samePassword,
    );
    expect((await reload(user)).passwordHash).toBe(user.passwordHash);
  });

  it('changes the password and revokes the other sessions, keeping the one named by the body', async () => {
    const user = await createUser(t.ctx);
    const mine = await login(user.email);
    const other = await login(user.email);
    const res = await patch('/users/password', body({ email: 'someone@else.com', refreshToken: mine.refreshToken }), user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: messages.passwordUpdated });
    expectApiError(await refresh(other.refreshToken), 401);
    expect((await refresh(mine.refreshToken)).statusCode).toBe(200);
    expect((await login(user.email, 'changed-pass')).accessToken).toEqual(expect.any(String));
  });

  it('revokes every session when none is named', async () => {
    const user = await createUser(t.ctx);
    const first = await login(user.email);
    const second = await login(user.email);
    expect((await patch('/users/password', body(), user)).statusCode).toBe(200);
    expectApiError(await refresh(first.refreshToken), 401);
    expectApiError(await refresh(second.refreshToken), 401);
  });

  it("does not keep a session that belongs to someone else's token", async () => {
    const user = await createUser(t.ctx);
    const stranger = await createUser(t.ctx);
    const theirs = await login(stranger.email);
    const mine = await login(user.email);
    expect((await patch('/users/password', body({ refreshToken: theirs.refreshToken }), user)).statusCode).toBe(200);
    expectApiError(await refresh(mine.refreshToken), 401);
    expect((await refresh(theirs.refreshToken)).statusCode).toBe(200);
  });
});

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg().toBuffer();

describe('PATCH /users/password: wrong current passwords per account', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMITS_ENABLED: 'true', RATE_LIMIT_PASSWORD_CHANGE: '3' });
  });
  afterAll(() => limited.close());
  const change = async (user: UserRow, curPassword: string, remoteAddress: string) =>
    limited.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/password',
      remoteAddress,
      headers: await bearer(limited.ctx, user),
      payload: { curPassword, newPassword: 'changed-pass', confirmPassword: 'changed-pass' },
    });

  it('answers 429 after RATE_LIMIT_PASSWORD_CHANGE wrong guesses, from any address, even for the right one', async () => {
    const user = await createUser(limited.ctx);
    const codes: number[] = [];
    // A new address for each guess: the limit is the account's, not the client's.
    for (let i = 0; i < 5; i += 1) codes.push((await change(user, `guess-${i}`, `10.0.0.${i + 1}`)).statusCode);
    expect(codes).toEqual([400, 400, 400, 429, 429]);
    const right = await change(user, TEST_PASSWORD, '10.0.1.1');
    expectApiError(right, 429);
    expect(right.json().message).toMatch(/^Too many requests, please try again in \d+ seconds\.$/);
    const [row] = await limited.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toBe(user.passwordHash);
    // Another account is not affected.
    expect((await change(await createUser(limited.ctx), TEST_PASSWORD, '10.0.0.1')).statusCode).toBe(200);
  });

  it('a right password clears the count', async () => {
    const user = await createUser(limited.ctx);
    expect((await change(user, 'wrong-1', '10.0.2.1')).statusCode).toBe(400);
    expect((await change(user, 'wrong-2', '10.0.2.1')).statusCode).toBe(400);
    expect((await change(user, TEST_PASSWORD, '10.0.2.1')).statusCode).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await change(user, `wrong-${i}`, '10.0.2.1')).statusCode);
    expect(codes).toEqual([400, 400, 400, 429]);
  });
});

describe.each([
  { url: '/users/avatar', column: 'avatarKey' as const, size: [256, 256], message: messages.avatarUpdated, field: 'avatar' as const },
  { url: '/users/cover-image', column: 'coverKey' as const, size: [1500, 300], message: messages.coverUpdated, field: 'coverImage' as const },
])('PATCH $url', ({ url, column, size, message, field }) => {
  const upload = async (parts: Record<string, string | FilePart>, user?: UserRow) => {
    const { payload, headers } = multipartBody(parts);
    return t.app.inject({
      method: 'PATCH',
      url: `/api/v1${url}`,
      payload,
      headers: { ...headers, ...(user ? await bearer(t.ctx, user) : {}) },
    });
  };
  const mediaPath = (key: string) => path.join(t.dataDir, 'media', key);

  it('answers 401 when anonymous', async () => {
    expectApiError(await upload({ image: { filename: 'a.png', content: await png(10, 10) } }), 401);
  });

  it('answers 400 for a missing image, a non-multipart body, a wrong type or a broken image', async () => {
    const user = await createUser(t.ctx);
    expectApiError(await upload({ title: 'no file' }, user), 400, messages.imageRequired);
    expectApiError(await patch(url, { image: 'x' }, user), 400);
    expectApiError(await upload({ image: { filename: 'a.png', content: Buffer.from('not an image'), contentType: 'image/png' } }, user), 400, messages.imageType);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    expectApiError(await upload({ image: { filename: 'a.gif', content: gif, contentType: 'image/gif' } }, user), 400, messages.imageType);
    const broken = Buffer.concat([(await png(20, 20)).subarray(0, 8), Buffer.alloc(200, 7)]);
    expectApiError(await upload({ image: { filename: 'a.png', content: broken, contentType: 'image/png' } }, user), 400, messages.imageUnreadable);
    expectApiError(await upload({ other: { filename: 'a.png', content: await png(10, 10) } }, user), 400);
    expect((await reload(user))[column]).toBeNull();
  });

  it('stores a resized JPEG, answers its URL and removes the previous file', async () => {
    const user = await createUser(t.ctx);
    const first = await upload({ image: { filename: 'photo.png', content: await png(800, 600), contentType: 'image/png' } }, user);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, message, data: { user: { _id: user.id } } });
    const firstKey = (await reload(user))[column]!;
    expect(firstKey).toMatch(new RegExp(`^users/${user.id}/[a-z]+-[0-9a-f-]+\\.jpg$`));
    expect(first.json().data.user[field]).toEqual({ url: `/media/${firstKey}` });
    const meta = await sharp(mediaPath(firstKey)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', size[0], size[1]]);

    const second = await upload({ image: { filename: 'photo.jpg', content: await jpeg(300, 900), contentType: 'image/jpeg' } }, user);
    expect(second.statusCode).toBe(200);
    const secondKey = (await reload(user))[column]!;
    expect(secondKey).not.toBe(firstKey);
    expect(existsSync(mediaPath(firstKey))).toBe(false);
    expect(existsSync(mediaPath(secondKey))).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: `/media/${secondKey}` });
    expect(served.statusCode).toBe(200);
  });
});

describe('image size limit', () => {
  let small: TestContext;
  beforeAll(async () => {
    small = await createTestApp({ MAX_IMAGE_MB: '1' });
  });
  afterAll(() => small.close());

  it('answers 413 for a file over MAX_IMAGE_MB and keeps the old avatar', async () => {
    const user = await createUser(small.ctx);
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(1024 * 1024 + 10)]);
    const { payload, headers } = multipartBody({ image: { filename: 'big.png', content: big, contentType: 'image/png' } });
    const res = await small.app.inject({ method: 'PATCH', url: '/api/v1/users/avatar', payload, headers: { ...headers, ...(await bearer(small.ctx, user)) } });
    expectApiError(res, 413, 'File size should not exceed 1MB');
    const [row] = await small.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.avatarKey).toBeNull();
  });
});

describe('GET /users/channel/:userName', () => {
  const get = async (name: string, viewer?: UserRow) =>
    t.app.inject({ method: 'GET', url: `/api/v1/users/channel/${name}`, headers: viewer ? await bearer(t.ctx, viewer) : {} });

  it('answers 404 for an unknown channel and 400 for an over-long name', async () => {
    expectApiError(await get('nobody-here'), 404, messages.channelNotFound);
    expectApiError(await get(encodeURIComponent('@nobody')), 404, messages.channelNotFound);
    expectApiError(await get('x'.repeat(40)), 400);
  });

  it('answers a caller with an expired token as a visitor (a public read)', async () => {
    const owner = await createUser(t.ctx);
    const token = await t.ctx.tokens.sign({ id: owner.id, userName: owner.userName }, -5);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/users/channel/${owner.userName}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('email');
  });

  it("shows counts, isSubscribed for the viewer, and the email only on the viewer's own channel", async () => {
    const owner = await createUser(t.ctx, { fullName: 'Channel Owner' });
    const fan = await createUser(t.ctx);
    const stranger = await createUser(t.ctx);
    await t.ctx.db.insert(subscriptions).values({ subscriberId: fan.id, channelId: owner.id });
    await t.ctx.db.update(users).set({ subscriberCount: 1 }).where(eq(users.id, owner.id));
    await createVideo(t.ctx, owner);
    await createVideo(t.ctx, owner);
    await createVideo(t.ctx, owner, { privacy: 'private' });
    await createVideo(t.ctx, owner, { status: 'processing' });
    await createVideo(t.ctx, fan);

    const anonymous = await get(owner.userName);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().data).toEqual({
      _id: owner.id,
      userName: owner.userName,
      fullName: 'Channel Owner',
      avatar: null,
      coverImage: null,
      subscriberCount: 1,
      subscribers: 1,
      totalSubscribers: 1,
      videoCount: 2,
      isSubscribed: false,
      createdAt: owner.createdAt.toISOString(),
    });
    expect(anonymous.body).not.toContain(owner.email);

    const asFan = await get(`@${owner.userName}`, fan);
    expect(asFan.json().data).toMatchObject({ isSubscribed: true, videoCount: 2 });
    expect((await get(encodeURIComponent(`@${owner.userName.toUpperCase()}`), stranger)).json().data.isSubscribed).toBe(false);
    expect(asFan.body).not.toContain(owner.email);
    const own = await get(owner.userName, owner);
    expect(own.json().data).toMatchObject({ isSubscribed: false, email: owner.email, subscriberCount: 1, totalSubscribers: 1, subscribers: 1 });
  });
});

describe('OpenAPI', () => {
  it('documents every account and channel route with its input', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = (method: string, p: string) => doc.paths[`/api/v1${p}`]?.[method];
    for (const [method, p] of [
      ['post', '/auths/register'],
      ['post', '/auths/login'],
      ['post', '/auths/logout'],
      ['post', '/auths/forgot-password-mail'],
      ['post', '/auths/refresh-token'],
      ['post', '/auths/password-reset'],
      ['patch', '/users/me'],
      ['patch', '/users/password'],
    ] as const) {
      expect(op(method, p)?.requestBody?.content?.['application/json']?.schema, `${method} ${p}`).toBeDefined();
    }
    for (const p of ['/users/avatar', '/users/cover-image']) {
      expect(op('patch', p).requestBody.content['multipart/form-data'].schema.anyOf[0].properties.image).toMatchObject({ format: 'binary' });
    }
    expect(op('get', '/auths/email-verification').parameters).toEqual([expect.objectContaining({ in: 'query', name: 'token' })]);
    expect(op('get', '/users/channel/{userName}').parameters).toEqual([expect.objectContaining({ in: 'path', name: 'userName' })]);
  });
});
