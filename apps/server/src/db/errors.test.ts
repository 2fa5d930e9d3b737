import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestContext } from '../../test/harness.ts';
import { newId } from '../lib/ids.ts';
import { UsersRepository } from '../modules/users/users.repository.ts';
import { isUniqueViolation } from './errors.ts';

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
