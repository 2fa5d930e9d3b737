import { messages } from '@glimpse/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, TEST_PASSWORD, type TestContext } from '../../test/harness.ts';
import { call, expectError } from '../../test/http.ts';
import { users } from '../db/schema.ts';
import { accountRefusal, isActive } from './account-state.ts';
import type { UserRow } from '../modules/users/users.repository.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const setState = (u: UserRow, state: UserRow['state'], extra: Partial<Pick<UserRow, 'stateReason' | 'suspendedUntil'>> = {}) =>
  t.ctx.db
    .update(users)
    .set({ state, ...extra })
    .where(eq(users.id, u.id));

async function login(u: UserRow) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: u.email, password: TEST_PASSWORD } });
  return { status: res.statusCode, body: res.json(), cookie: res.cookies.find((c) => c.name === 'refreshToken')?.value };
}

describe('isActive and accountRefusal', () => {
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 3_600_000);
  it('treats a suspension as over once its end has passed, and an open-ended one as lasting', () => {
    expect(isActive({ state: 'active', suspendedUntil: null })).toBe(true);
    expect(isActive({ state: 'suspended', suspendedUntil: past })).toBe(true);
    expect(isActive({ state: 'suspended', suspendedUntil: future })).toBe(false);
    expect(isActive({ state: 'suspended', suspendedUntil: null })).toBe(false);
    expect(isActive({ state: 'pending_approval', suspendedUntil: null })).toBe(false);
  });
  it('words the refusal with the end date and the reason', () => {
    expect(accountRefusal({ state: 'active', stateReason: null, suspendedUntil: null })).toBeNull();
    expect(accountRefusal({ state: 'pending_approval', stateReason: null, suspendedUntil: null })?.message).toBe(messages.accountPendingApproval);
    const until = new Date('2030-01-02T10:00:00Z');
    const refusal = accountRefusal({ state: 'suspended', stateReason: 'Spam', suspendedUntil: until });
    expect(refusal?.statusCode).toBe(403);
    expect(refusal?.message).toBe('Your account is suspended until 2030-01-02: Spam');
  });
});

describe('an account that may not act', () => {
  it('cannot log in while pending approval or suspended, and can once active again', async () => {
    const u = await createUser(t.ctx, { state: 'pending_approval' });
    expectError(await login(u), 403, messages.accountPendingApproval);
    await setState(u, 'suspended', { stateReason: 'Harassment' });
    expectError(await login(u), 403, 'Your account is suspended: Harassment');
    await setState(u, 'suspended', { suspendedUntil: new Date(Date.now() - 1000) });
    expect((await login(u)).status).toBe(200);
  });

  it('is nobody at its next request once suspended, and its refresh token is refused', async () => {
    const u = await createUser(t.ctx);
    const { cookie } = await login(u);
    expect((await call(t, 'GET', '/users/me', { as: u })).status).toBe(200);
    await setState(u, 'suspended', { stateReason: 'Spam' });
    expectError(await call(t, 'GET', '/users/me', { as: u }), 401, messages.accountSuspended);
    expectError(await call(t, 'POST', '/tweets', { as: u, body: { content: 'still here' } }), 401, messages.accountSuspended);
    // A public GET still answers, as to a visitor (its own channel is hidden with it now: ADR 012).
    const someone = await createUser(t.ctx);
    expect((await call(t, 'GET', `/users/channel/${someone.userName}`, { as: u })).status).toBe(200);
    expect((await call(t, 'GET', `/users/channel/${u.userName}`, { as: u })).status).toBe(404);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auths/refresh-token', cookies: { refreshToken: cookie! } });
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json().message).toBe('Your account is suspended: Spam');
  });

  it('takes its role from the database at each request, not from the token', async () => {
    const u = await createUser(t.ctx, { role: 'admin' });
    expect((await call(t, 'GET', '/users/me', { as: u })).body.data.user.role).toBe('admin');
    await t.ctx.db.update(users).set({ role: 'user', updatedAt: sql`now()` }).where(eq(users.id, u.id));
    expect((await call(t, 'GET', '/users/me', { as: u })).body.data.user.role).toBe('user');
  });
});
