import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@glimpse/contract';
import {
  bearer,
  createTestApp,
  createUser,
  expectApiError,
  lastMailLink,
  memoryLog,
  readOutbox,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { emailTokens, sessions, users } from '../../db/schema.ts';
import { createWorker } from '../../worker.ts';
import { sha256 } from '../../lib/hash.ts';
import { PASSWORD_RESET_MAIL_QUEUE } from './auth.service.ts';
import { CROSS_ORIGIN_MESSAGE } from '../../identity/refresh-cookie.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
const uniqueEmail = (name = 'user') => `${name}${++seq}.${Date.now()}@example.com`;

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });

const register = (body: Record<string, unknown>) => post('/auths/register', body);

async function login(email: string, password = TEST_PASSWORD) {
  const res = await post('/auths/login', { email, password });
  expect(res.statusCode).toBe(200);
  return res.json().data as { accessToken: string; refreshToken: string; user: { _id: string; userName: string } };
}

const refresh = (refreshToken: string) => post('/auths/refresh-token', { refreshToken });
/** Runs the queued jobs (the reset mails) as the worker does. */
const deliverMail = () => createWorker(t.ctx, memoryLog()).drain();
interface Cookie {
  name: string;
  value: string;
  secure?: boolean;
  expires?: Date;
}
const cookieOf = (res: { cookies: Cookie[] }) => res.cookies.find((c) => c.name === 'refreshToken');
const userCount = async () => (await queryRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM users`))[0]!.n;
const me = (accessToken: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${accessToken}` } });

describe('POST /auths/register', () => {
  it('answers 400 for bad input and creates nothing', async () => {
    const before = await userCount();
    const email = uniqueEmail();
    expectApiError(await register({ email, password: TEST_PASSWORD }), 400);
    expectApiError(await register({ fullName: '   ', email, password: TEST_PASSWORD }), 400, messages.nameRequired);
    expectApiError(await register({ fullName: 'A', email: 'not-an-email', password: TEST_PASSWORD }), 400, messages.emailInvalid);
    expectApiError(await register({ fullName: 'A', email: '', password: TEST_PASSWORD }), 400, messages.emailRequired);
    expectApiError(await register({ fullName: 'A', email, password: '' }), 400, messages.passwordRequired);
    expectApiError(await register({ fullName: 'A', email, password: '12345' }), 400);
    expectApiError(await register({ fullName: 123, email, password: TEST_PASSWORD }), 400);
    // The full name goes into the verification mail: one line without control characters.
    for (const fullName of ['Eve\r\nBcc: all@example.com', 'Eve\nSmith', 'Eve\tSmith', 'Eve\u0085Smith', 'Eve\u0000Smith']) {
      expectApiError(await register({ fullName, email, password: TEST_PASSWORD }), 400);
    }
    expectApiError(await register({ fullName: 'x'.repeat(61), email, password: TEST_PASSWORD }), 400);
    expectApiError(await register({ fullName: 'A', email, password: 'p'.repeat(129) }), 400);
    expectApiError(await register({ fullName: 'A', email: `${'e'.repeat(250)}@x.com`, password: TEST_PASSWORD }), 400);
    expectApiError(await post('/auths/register', '{"fullName":', { 'content-type': 'application/json' }), 400, 'Malformed JSON body');
    expect(await userCount()).toBe(before);
    expect((await readOutbox(t.dataDir)).filter((m) => m.to === email)).toEqual([]);
  });

  it('creates an unverified account, hashes the password with argon2id and mails a verification link', async () => {
    const email = uniqueEmail('Ada');
    const res = await register({ fullName: '  Ada Lovelace ', email: `  ${email.toUpperCase()} `, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      statusCode: 201,
      message: messages.registered,
      data: { user: { fullName: 'Ada Lovelace', email: email.toLowerCase(), avatar: null, coverImage: null } },
    });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(row!.emailVerifiedAt).toBeNull();
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.to === email.toLowerCase());
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Verify your email address');
    expect(mails[0]!.text).toContain('http://glimpse.test/email-verification?token=');
    // Only the hash of the mailed token is stored.
    const token = await lastMailLink(t.dataDir, 'email-verification', email.toLowerCase());
    const [stored] = await t.ctx.db.select().from(emailTokens).where(eq(emailTokens.userId, row!.id));
    expect(stored!.tokenHash).toBe(sha256(token));
    expect(stored!.purpose).toBe('verify');
  });

  it('generates the user name from the full name with the smallest free number suffix', async () => {
    await createUser(t.ctx, { userName: 'gracehopper' });
    await createUser(t.ctx, { userName: 'gracehopper2' });
    const names: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await register({ fullName: 'Grace Hopper!', email: uniqueEmail('grace'), password: TEST_PASSWORD });
      names.push(res.json().data.user.userName);
    }
    expect(names).toEqual(['gracehopper1', 'gracehopper3', 'gracehopper4']);
    const accents = await register({ fullName: 'José Núñez', email: uniqueEmail(), password: TEST_PASSWORD });
    expect(accents.json().data.user.userName).toBe('josenunez');
    const noLatin = await register({ fullName: '李雷', email: uniqueEmail(), password: TEST_PASSWORD });
    expect(noLatin.json().data.user.userName).toMatch(/^user\d*$/);
  });

  it('answers 409 for an email that already has an account, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await register({ fullName: 'First', email, password: TEST_PASSWORD })).statusCode).toBe(201);
    const before = await userCount();
    expectApiError(await register({ fullName: 'Second', email: email.toUpperCase(), password: TEST_PASSWORD }), 409, messages.emailTaken);
    expect(await userCount()).toBe(before);
  });
});

describe('GET /auths/email-verification', () => {
  const verify = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/auths/email-verification${query}` });

  it('answers 400 without a token, for an unknown one and for an over-long one', async () => {
    expectApiError(await verify(''), 400);
    expectApiError(await verify('?token='), 400);
    expectApiError(await verify('?token=nope'), 400, messages.verificationLinkInvalid);
    expectApiError(await verify(`?token=${'a'.repeat(201)}`), 400);
  });

  it('verifies the account once; a used or expired token is refused', async () => {
    const email = uniqueEmail();
    await register({ fullName: 'Verify Me', email, password: TEST_PASSWORD });
    const token = await lastMailLink(t.dataDir, 'email-verification', email);
    const res = await verify(`?token=${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, statusCode: 200, message: messages.emailVerified });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(row!.emailVerifiedAt).toBeInstanceOf(Date);
    expectApiError(await verify(`?token=${token}`), 400, messages.verificationLinkInvalid);

    const other = uniqueEmail();
    await register({ fullName: 'Too Late', email: other, password: TEST_PASSWORD });
    const late = await lastMailLink(t.dataDir, 'email-verification', other);
    await t.ctx.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.tokenHash, sha256(late)));
    expectApiError(await verify(`?token=${late}`), 400, messages.verificationLinkInvalid);
    const [unverified] = await t.ctx.db.select().from(users).where(eq(users.email, other));
    expect(unverified!.emailVerifiedAt).toBeNull();
  });
});

describe('POST /auths/login', () => {
  it('answers 400 for bad input', async () => {
    expectApiError(await post('/auths/login', { email: 'nope', password: 'x' }), 400, messages.emailInvalid);
    expectApiError(await post('/auths/login', { email: uniqueEmail() }), 400);
    expectApiError(await post('/auths/login', { email: uniqueEmail(), password: '' }), 400, messages.passwordRequired);
    expectApiError(await post('/auths/login', { email: uniqueEmail(), password: 42 }), 400);
    expectApiError(await post('/auths/login', '[1,', { 'content-type': 'application/json' }), 400);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const user = await createUser(t.ctx);
    expectApiError(await post('/auths/login', { email: uniqueEmail(), password: TEST_PASSWORD }), 401, messages.invalidCredentials);
    expectApiError(await post('/auths/login', { email: user.email, password: 'wrong-password' }), 401, messages.invalidCredentials);
  });

  it('answers 403 while the email is unverified and mails a fresh verification link', async () => {
    const user = await createUser(t.ctx, { verified: false });
    const res = await post('/auths/login', { email: user.email, password: TEST_PASSWORD });
    expectApiError(res, 403, messages.emailNotVerified);
    expect(cookieOf(res)).toBeUndefined();
    const token = await lastMailLink(t.dataDir, 'email-verification', user.email);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auths/email-verification?token=${token}` })).statusCode).toBe(200);
    expect((await post('/auths/login', { email: user.email, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it('answers tokens and the user, and sets the refresh token as an httpOnly cookie', async () => {
    const user = await createUser(t.ctx, { fullName: 'Login Ok' });
    const res = await post('/auths/login', { email: user.email.toUpperCase(), password: TEST_PASSWORD }, { 'user-agent': 'vitest' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: messages.loggedIn,
      data: { user: { _id: user.id, userName: user.userName, fullName: 'Login Ok', email: user.email } },
    });
    expect(body.data.accessToken).toEqual(expect.any(String));
    expect(body.data.user).not.toHaveProperty('passwordHash');
    const cookie = cookieOf(res)!;
    expect(cookie).toMatchObject({ value: body.data.refreshToken, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(cookie.secure).toBeFalsy();
    expect((await me(body.data.accessToken)).json().data.user._id).toBe(user.id);
    const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.tokenHash, sha256(body.data.refreshToken)));
    expect(session).toMatchObject({ userId: user.id, userAgent: 'vitest', rotatedAt: null, revokedAt: null });
  });

  it('marks the cookie Secure when the request came over https through a trusted proxy (TRUST_PROXY), never on the client’s word', async () => {
    const user = await createUser(t.ctx);
    const forged = await post('/auths/login', { email: user.email, password: TEST_PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect(cookieOf(forged)!.secure).toBeFalsy();
    const proxied = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const proxyUser = await createUser(proxied.ctx);
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/v1/auths/login',
        payload: { email: proxyUser.email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(cookieOf(res)!.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});

describe('POST /auths/refresh-token', () => {
  it('answers 400 for a wrongly typed token and 401 without one or for an unknown one', async () => {
    expectApiError(await post('/auths/refresh-token', { refreshToken: 5 }), 400);
    expectApiError(await post('/auths/refresh-token', { refreshToken: 'x'.repeat(201) }), 400);
    expectApiError(await post('/auths/refresh-token', {}), 401, messages.refreshTokenMissing);
    expectApiError(await post('/auths/refresh-token'), 401, messages.refreshTokenMissing);
    expectApiError(await refresh('not-a-token'), 401, messages.refreshTokenInvalid);
  });

  it('rotates the token from the body or the cookie', async () => {
    const user = await createUser(t.ctx);
    const first = await login(user.email);
    const viaBody = await refresh(first.refreshToken);
    expect(viaBody.statusCode).toBe(200);
    const second = viaBody.json().data;
    expect(viaBody.json().message).toBe(messages.tokenRefreshed);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(cookieOf(viaBody)!.value).toBe(second.refreshToken);
    expect((await me(second.accessToken)).statusCode).toBe(200);

    const viaCookie = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auths/refresh-token',
      cookies: { refreshToken: second.refreshToken },
    });
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.json().data.refreshToken).not.toBe(second.refreshToken);
  });

  it('refuses a rotated token whose successor was used and revokes its whole family, but not other sessions', async () => {
    const user = await createUser(t.ctx);
    const stolen = await login(user.email);
    const otherDevice = await login(user.email);
    const rotated = (await refresh(stolen.refreshToken)).json().data;
    const newer = (await refresh(rotated.refreshToken)).json().data;
    const replay = await refresh(stolen.refreshToken);
    expectApiError(replay, 401, messages.refreshTokenReused);
    expect(cookieOf(replay)!.value).toBe('');
    // The legitimate holder's newer token died with the family, and so did the family's access tokens, at once.
    expectApiError(await refresh(newer.refreshToken), 401, messages.refreshTokenInvalid);
    expectApiError(await me(newer.accessToken), 401, messages.sessionEnded);
    expectApiError(await me(stolen.accessToken), 401, messages.sessionEnded);
    expect((await me(otherDevice.accessToken)).statusCode).toBe(200);
    expect((await refresh(otherDevice.refreshToken)).statusCode).toBe(200);
  });

  it('answers a rotated token presented again at once, its answer lost, with the same successor (a reload during the refresh)', async () => {
    const user = await createUser(t.ctx);
    const first = await login(user.email);
    const rotated = (await refresh(first.refreshToken)).json().data;
    const again = await refresh(first.refreshToken);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.refreshToken).toBe(rotated.refreshToken);
    expect(cookieOf(again)!.value).toBe(rotated.refreshToken);
    expect((await me(again.json().data.accessToken)).statusCode).toBe(200);
    // No token was added: the family still holds one live token, which rotates as usual.
    const rows = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.filter((r) => !r.rotatedAt && !r.revokedAt)).toHaveLength(1);
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(200);
  });

  it('gives two refreshes racing with one token (two tabs opening) the same successor', async () => {
    const user = await createUser(t.ctx);
    const { refreshToken } = await login(user.email);
    const answers = await Promise.all([refresh(refreshToken), refresh(refreshToken), refresh(refreshToken)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().data.refreshToken)).size).toBe(1);
    for (const a of answers) expect((await me(a.json().data.accessToken)).statusCode).toBe(200);
  });

  it('treats a rotated token presented after the grace of 30 s as a replay', async () => {
    const user = await createUser(t.ctx);
    const first = await login(user.email);
    const rotated = (await refresh(first.refreshToken)).json().data;
    await t.ctx.db.update(sessions).set({ rotatedAt: new Date(Date.now() - 31_000) }).where(eq(sessions.tokenHash, sha256(first.refreshToken)));
    expectApiError(await refresh(first.refreshToken), 401, messages.refreshTokenReused);
    expectApiError(await refresh(rotated.refreshToken), 401, messages.refreshTokenInvalid);
  });

  it('refuses an expired token', async () => {
    const user = await createUser(t.ctx);
    const { refreshToken } = await login(user.email);
    await t.ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.tokenHash, sha256(refreshToken)));
    expectApiError(await refresh(refreshToken), 401, messages.refreshTokenInvalid);
  });
});

describe('POST /auths/logout', () => {
  it('answers 400 for a wrongly typed token', async () => {
    expectApiError(await post('/auths/logout', { refreshToken: ['a'] }), 400);
  });

  it('ends the session named by the cookie and clears the cookie', async () => {
    const user = await createUser(t.ctx);
    const session = await login(user.email);
    const other = await login(user.email);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auths/logout', cookies: { refreshToken: session.refreshToken } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: messages.loggedOut, data: null });
    const cleared = cookieOf(res)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
    expectApiError(await refresh(session.refreshToken), 401);
    expect((await refresh(other.refreshToken)).statusCode).toBe(200);
  });

  it('ends the session named in the body, and succeeds without any token', async () => {
    const user = await createUser(t.ctx);
    const session = await login(user.email);
    expect((await post('/auths/logout', { refreshToken: session.refreshToken })).statusCode).toBe(200);
    expectApiError(await refresh(session.refreshToken), 401);
    expect((await post('/auths/logout')).statusCode).toBe(200);
    expect((await post('/auths/logout', { refreshToken: 'unknown' })).statusCode).toBe(200);
  });
});

describe('the refresh cookie from another origin (same-site CSRF)', () => {
  // PUBLIC_URL is http://glimpse.test; inject addresses the app as localhost:80.
  const withCookie = (url: string, token: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, cookies: { refreshToken: token }, headers });
  const elsewhere: Record<string, string>[] = [
    { origin: 'http://glimpse.test:8080', 'sec-fetch-site': 'same-site' },
    { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-site' },
    { origin: 'http://evil.example' },
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
  ];

  it('cannot end a session or renew it: 403, and the session lives on', async () => {
    const user = await createUser(t.ctx);
    const session = await login(user.email);
    for (const headers of elsewhere) {
      const out = await withCookie('/auths/logout', session.refreshToken, headers);
      expectApiError(out, 403, CROSS_ORIGIN_MESSAGE);
      expect(cookieOf(out)).toBeUndefined();
      expectApiError(await withCookie('/auths/refresh-token', session.refreshToken, headers), 403, CROSS_ORIGIN_MESSAGE);
    }
    // Neither rotated nor revoked: the token still refreshes.
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
  });

  it('works from our own pages, addressed by Host or by PUBLIC_URL', async () => {
    const user = await createUser(t.ctx);
    let token = (await login(user.email)).refreshToken;
    const ownPages: Record<string, string>[] = [
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      { origin: 'http://glimpse.test', 'sec-fetch-site': 'same-origin' },
      { origin: 'http://localhost' },
      {},
    ];
    for (const headers of ownPages) {
      const res = await withCookie('/auths/refresh-token', token, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      token = res.json().data.refreshToken;
    }
    expect((await withCookie('/auths/logout', token, { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expectApiError(await refresh(token), 401);
  });

  it('API clients that send the token in the body keep working from anywhere', async () => {
    const user = await createUser(t.ctx);
    const session = await login(user.email);
    const renewed = await post('/auths/refresh-token', { refreshToken: session.refreshToken }, { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(renewed.statusCode).toBe(200);
    const { refreshToken } = renewed.json().data;
    expect((await post('/auths/logout', { refreshToken }, { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-site' })).statusCode).toBe(200);
    expectApiError(await refresh(refreshToken), 401);
  });
});

describe('POST /auths/forgot-password-mail', () => {
  it('answers 400 without a valid email', async () => {
    expectApiError(await post('/auths/forgot-password-mail', {}), 400);
    expectApiError(await post('/auths/forgot-password-mail', { email: '' }), 400, messages.forgotEmailRequired);
    expectApiError(await post('/auths/forgot-password-mail', { email: 'nope' }), 400, messages.emailInvalid);
  });

  it('answers the same for known and unknown emails and mails only existing accounts', async () => {
    const user = await createUser(t.ctx);
    const unknown = uniqueEmail('ghost');
    const known = await post('/auths/forgot-password-mail', { email: user.email });
    const missing = await post('/auths/forgot-password-mail', { email: unknown });
    await deliverMail();
    expect(known.statusCode).toBe(200);
    expect(missing.statusCode).toBe(200);
    expect(known.json()).toEqual(missing.json());
    expect(known.json().message).toBe(messages.resetMailSent);
    const mails = await readOutbox(t.dataDir);
    expect(mails.filter((m) => m.to === unknown)).toEqual([]);
    const reset = mails.filter((m) => m.to === user.email);
    expect(reset).toHaveLength(1);
    expect(reset[0]!.text).toContain('http://glimpse.test/password-reset?token=');
  });
});

describe('POST /auths/forgot-password-mail timing', () => {
  it('takes the same time for known and unknown emails: the mail goes out after the answer', async () => {
    const user = await createUser(t.ctx);
    const unknown = uniqueEmail('ghost');
    const original = t.ctx.mailer;
    const sent: string[] = [];
    // An SMTP server that takes 2 s per mail (the one third party here).
    t.ctx.mailer = {
      send: async (mail) => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        sent.push(mail.to);
      },
    };
    try {
      const timed = async (email: string) => {
        const start = performance.now();
        const res = await post('/auths/forgot-password-mail', { email });
        return { res, ms: performance.now() - start };
      };
      const known = await timed(user.email);
      const missing = await timed(unknown);
      expect(known.res.json()).toEqual(missing.res.json());
      expect(known.ms).toBeLessThan(1000);
      expect(missing.ms).toBeLessThan(1000);
      expect(sent).toEqual([]);
      // The same work for both: one queued job each, the address its only content.
      const queued = await queryRows<{ payload: unknown }>(
        t.ctx.db,
        sql`SELECT payload FROM jobs WHERE queue = ${PASSWORD_RESET_MAIL_QUEUE} AND status = 'queued' ORDER BY id`,
      );
      expect(queued.map((j) => j.payload)).toEqual([{ email: user.email }, { email: unknown }]);
      await deliverMail();
      expect(sent).toEqual([user.email]);
    } finally {
      t.ctx.mailer = original;
    }
  });
});

describe('POST /auths/password-reset', () => {
  const reset = (body: Record<string, unknown>) => post('/auths/password-reset', body);

  it('answers 400 for bad input and 401 for an unknown token', async () => {
    expectApiError(await reset({ token: 'x', newPassword: 'abcdef', confirmPassword: 'abcdeg' }), 400, messages.passwordsMustMatch);
    expectApiError(await reset({ token: 'x', newPassword: 'abc', confirmPassword: 'abc' }), 400, messages.newPasswordMin);
    expectApiError(await reset({ token: 'x', newPassword: '', confirmPassword: '' }), 400);
    expectApiError(await reset({ newPassword: 'abcdef', confirmPassword: 'abcdef' }), 400);
    expectApiError(await reset({ token: 'x', newPassword: 'abcdef', confirmPassword: 'abcdef' }), 401, messages.resetLinkInvalid);
  });

  it('refuses an expired token and leaves the password alone', async () => {
    const user = await createUser(t.ctx);
    await post('/auths/forgot-password-mail', { email: user.email });
    await deliverMail();
    const token = await lastMailLink(t.dataDir, 'password-reset', user.email);
    await t.ctx.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.tokenHash, sha256(token)));
    expectApiError(await reset({ token, newPassword: 'brand-new', confirmPassword: 'brand-new' }), 401, messages.resetLinkInvalid);
    await login(user.email);
  });

  it('a verification token is not a reset token', async () => {
    const email = uniqueEmail();
    await register({ fullName: 'Mixed Up', email, password: TEST_PASSWORD });
    const token = await lastMailLink(t.dataDir, 'email-verification', email);
    expectApiError(await reset({ token, newPassword: 'brand-new', confirmPassword: 'brand-new' }), 401, messages.resetLinkInvalid);
  });
});

describe('the whole account journey', () => {
  it('register -> verify -> login -> refresh -> change password -> forgot/reset -> logout', async () => {
    const email = uniqueEmail('journey');
    expect((await register({ fullName: 'Journey Person', email, password: TEST_PASSWORD })).statusCode).toBe(201);
    expectApiError(await post('/auths/login', { email, password: TEST_PASSWORD }), 403);
    const verifyToken = await lastMailLink(t.dataDir, 'email-verification', email);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auths/email-verification?token=${verifyToken}` })).statusCode).toBe(200);

    const laptop = await login(email);
    const phone = await login(email);
    expect(laptop.user.userName).toBe('journeyperson');

    // refresh: once its successor is used, the old token is refused and its whole family revoked
    const rotated = (await refresh(laptop.refreshToken)).json().data;
    const newer = (await refresh(rotated.refreshToken)).json().data;
    expectApiError(await refresh(laptop.refreshToken), 401, messages.refreshTokenReused);
    expectApiError(await refresh(newer.refreshToken), 401);
    const desk = await login(email);

    // change password from the desk session: the phone is signed out, the desk stays
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/password',
      headers: { authorization: `Bearer ${desk.accessToken}` },
      cookies: { refreshToken: desk.refreshToken },
      payload: { email, curPassword: TEST_PASSWORD, newPassword: 'second-pass', confirmPassword: 'second-pass' },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().message).toBe(messages.passwordUpdated);
    expectApiError(await refresh(phone.refreshToken), 401);
    const deskAgain = (await refresh(desk.refreshToken)).json().data;
    expectApiError(await post('/auths/login', { email, password: TEST_PASSWORD }), 401);
    const tablet = await login(email, 'second-pass');

    // forgot/reset: the link works once and signs out every session
    await post('/auths/forgot-password-mail', { email });
    await deliverMail();
    const resetToken = await lastMailLink(t.dataDir, 'password-reset', email);
    const body = { token: resetToken, newPassword: 'third-pass', confirmPassword: 'third-pass' };
    const done = await post('/auths/password-reset', body);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(messages.passwordReset);
    expectApiError(await post('/auths/password-reset', body), 401, messages.resetLinkInvalid);
    expectApiError(await refresh(deskAgain.refreshToken), 401);
    expectApiError(await refresh(tablet.refreshToken), 401);
    expectApiError(await post('/auths/login', { email, password: 'second-pass' }), 401);
    const final = await login(email, 'third-pass');

    // logout ends that session, its access token included
    const out = await post('/auths/logout', { refreshToken: final.refreshToken }, { authorization: `Bearer ${final.accessToken}` });
    expect(out.statusCode).toBe(200);
    expectApiError(await refresh(final.refreshToken), 401);
    expectApiError(await me(final.accessToken), 401, messages.sessionEnded);
  });

  it('an older reset link stops working once a newer one was used', async () => {
    const user = await createUser(t.ctx);
    await post('/auths/forgot-password-mail', { email: user.email });
    await deliverMail();
    const older = await lastMailLink(t.dataDir, 'password-reset', user.email);
    await post('/auths/forgot-password-mail', { email: user.email });
    await deliverMail();
    const newer = await lastMailLink(t.dataDir, 'password-reset', user.email);
    expect(newer).not.toBe(older);
    expect((await post('/auths/password-reset', { token: newer, newPassword: 'abcdefg', confirmPassword: 'abcdefg' })).statusCode).toBe(200);
    expectApiError(await post('/auths/password-reset', { token: older, newPassword: 'hijklmn', confirmPassword: 'hijklmn' }), 401);
    expect((await me((await login(user.email, 'abcdefg')).accessToken)).statusCode).toBe(200);
  });

  it('a reset link also verifies the email it was sent to', async () => {
    const user = await createUser(t.ctx, { verified: false });
    await post('/auths/forgot-password-mail', { email: user.email });
    await deliverMail();
    const token = await lastMailLink(t.dataDir, 'password-reset', user.email);
    await post('/auths/password-reset', { token, newPassword: 'abcdefg', confirmPassword: 'abcdefg' });
    await login(user.email, 'abcdefg');
  });

  it('logout does not need a valid access token', async () => {
    const user = await createUser(t.ctx);
    const session = await login(user.email);
    const res = await post('/auths/logout', { refreshToken: session.refreshToken }, await bearer(t.ctx, user));
    expect(res.statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({
      RATE_LIMITS_ENABLED: 'true',
      RATE_LIMIT_LOGIN: '3',
      RATE_LIMIT_REGISTER: '2',
      RATE_LIMIT_FORGOT_PASSWORD: '0',
      RATE_LIMIT_VERIFICATION_RESEND: '2',
    });
  });
  afterAll(() => limited.close());
  const send = (url: string, payload: object) => limited.app.inject({ method: 'POST', url: `/api/v1${url}`, payload });

  it('answers 429 JSON once the login limit is reached', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1) codes.push((await send('/auths/login', { email: uniqueEmail(), password: 'x' })).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const res = await send('/auths/login', { email: uniqueEmail(), password: 'x' });
    expectApiError(res, 429);
    expect(res.json().message).toMatch(/^Too many requests, please try again in \d+ seconds\.$/);
  });

  it('limits register, and a limit of 0 switches one off', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      codes.push((await send('/auths/register', { fullName: 'Rate Limited', email: uniqueEmail(), password: TEST_PASSWORD })).statusCode);
    }
    expect(codes).toEqual([201, 201, 429]);
    for (let i = 0; i < 8; i += 1) expect((await send('/auths/forgot-password-mail', { email: uniqueEmail() })).statusCode).toBe(200);
  });

  it('mails a fresh verification link on a 403 login at most RATE_LIMIT_VERIFICATION_RESEND times per window', async () => {
    const user = await createUser(limited.ctx, { verified: false });
    const messagesSeen: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/auths/login',
        payload: { email: user.email, password: TEST_PASSWORD },
        remoteAddress: `10.0.0.${i + 1}`,
      });
      expect(res.statusCode).toBe(403);
      messagesSeen.push(res.json().message);
    }
    expect(messagesSeen).toEqual([messages.emailNotVerified, messages.emailNotVerified, messages.emailNotVerifiedRecentlySent]);
    expect((await readOutbox(limited.dataDir)).filter((m) => m.to === user.email)).toHaveLength(2);
  });
});

describe('concurrent registrations', () => {
  it('give the same full name distinct user names, and one email one account', async () => {
    const sameName = await Promise.all(
      Array.from({ length: 4 }, () => register({ fullName: 'Race Name', email: uniqueEmail('race'), password: TEST_PASSWORD })),
    );
    expect(sameName.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(sameName.map((r) => r.json().data.user.userName)).size).toBe(4);

    const email = uniqueEmail('same');
    const sameEmail = await Promise.all(
      Array.from({ length: 3 }, (_, i) => register({ fullName: `Same Email ${i}`, email, password: TEST_PASSWORD })),
    );
    expect(sameEmail.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});
