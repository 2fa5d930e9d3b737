import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestContext } from '../../test/harness.ts';
import { newId } from '../lib/ids.ts';
import { UsersRepository } from '../modules/users/users.repository.ts';
import { isDatabaseUnavailable, isUniqueViolation } from './errors.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('isUniqueViolation', () => {
  it('recognises the driver error behind Drizzle and names its constraint', async () => {
    const user = await createUser(t.ctx);
    const row = { id: newId(), fullName: 'Dup', userName: `${user.userName}x`, email: user.email, passwordHash: 'x' };
    const err = await new UsersRepository(t.ctx.db).insert(row).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(isUniqueViolation(err, 'users_email_key')).toBe(true);
    expect(isUniqueViolation(err, 'users_user_name_key')).toBe(false);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  it('tells a database that went away from a query that is wrong', async () => {
    const wrapped = (cause: object) => Object.assign(new Error('Failed query'), { cause });
    expect(isDatabaseUnavailable(wrapped({ code: '57P01', message: 'terminating connection due to administrator command' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '08006' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '55000', message: 'database "x" is not currently accepting connections' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '55000', message: 'something else' })).toBe(false);
    const bad = await new UsersRepository(t.ctx.db).insert({ id: 'nope' } as never).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(bad)).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
