import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, lastMailLink, TEST_PASSWORD, type TestContext } from '../../../test/harness.ts';
import { pgliteExtensions, queryRows, wrapPglite } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { users } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { can } from '../../lib/permissions.ts';
import { AuthService } from '../auth/auth.service.ts';
import { promoteAdminEmail, setRole } from './roles.service.ts';
import type { UserRow } from './users.repository.ts';

const ADMIN_EMAIL = 'operator@example.com';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL: 'Operator@Example.com' });
});
afterAll(() => t.close());

/** The CHECK constraint (23514) a statement broke, from the driver error Drizzle wraps. */
async function checkViolated(statement: Promise<unknown>): Promise<string | undefined> {
  const err = await statement.then(
    () => undefined,
    (e: unknown) => e,
  );
  const cause = (err as { cause?: { code?: string; constraint?: string } } | undefined)?.cause;
  return cause?.code === '23514' ? cause.constraint : undefined;
}

const roleOf = async (id: string) => (await t.ctx.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]?.role;
const me = async (user: UserRow) => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: await bearer(t.ctx, user) });

describe('the role column', () => {
  it('defaults to user and refuses any other value than user, moderator, admin', async () => {
    const user = await createUser(t.ctx);
    expect(user.role).toBe('user');
    const id = newId();
    const insert = t.ctx.db.execute(
      sql`INSERT INTO users (id, user_name, full_name, email, password_hash, role) VALUES (${id}, ${`r${id.slice(-8)}`}, 'R', ${`${id}@example.com`}, 'x', 'superuser')`,
    );
    expect(await checkViolated(insert)).toBe('users_role_check');
    expect(await checkViolated(t.ctx.db.execute(sql`UPDATE users SET role = 'root' WHERE id = ${user.id}`))).toBe('users_role_check');
    expect(await roleOf(user.id)).toBe('user');
  });
});

describe('migration 0640', () => {
  it('makes every account of an upgraded instance a user', async () => {
    const database = wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
    try {
      await migrate(database, { before: '0640' });
      const id = newId();
      await database.db.execute(
        sql`INSERT INTO users (id, full_name, user_name, email, password_hash) VALUES (${id}, 'Old Timer', ${`old${id.slice(-6)}`}, ${`old${id.slice(-6)}@example.com`}, 'x')`,
      );
      expect(await migrate(database)).toContain('0640_roles.sql');
      expect(await queryRows(database.db, sql`SELECT role FROM users`)).toEqual([{ role: 'user' }]);
    } finally {
      await database.close();
    }
  });
});

describe('can()', () => {
  it("lets only staff (moderators and admins) 'administer'", () => {
    expect(can(null, 'administer')).toBe(false);
    expect(can({ role: 'user' }, 'administer')).toBe(false);
    expect(can({ role: 'moderator' }, 'administer')).toBe(true);
    expect(can({ role: 'admin' }, 'administer')).toBe(true);
  });

  it('lets staff moderate and only admins configure the instance or delete accounts', () => {
    expect(can({ role: 'user' }, 'moderate')).toBe(false);
    expect(can({ role: 'moderator' }, 'moderate')).toBe(true);
    for (const action of ['configure', 'deleteAccounts'] as const) {
      expect(can(null, action)).toBe(false);
      expect(can({ role: 'user' }, action)).toBe(false);
      expect(can({ role: 'moderator' }, action)).toBe(false);
      expect(can({ role: 'admin' }, action)).toBe(true);
    }
  });
});

describe('the role in the user object', () => {
  it('is in GET users/me and in the login answer, as stored', async () => {
    const user = await createUser(t.ctx);
    expect((await me(user)).json().data.user).toMatchObject({ _id: user.id, role: 'user' });
    await setRole(t.ctx.db, `@${user.userName}`, 'moderator');
    expect((await me(user)).json().data.user.role).toBe('moderator');
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/auths/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(login.json().data.user).toMatchObject({ _id: user.id, role: 'moderator' });
  });
});

describe('setRole', () => {
  it('finds the account by email in any case or by @handle, and names no account for an unknown one', async () => {
    const user = await createUser(t.ctx);
    expect(await setRole(t.ctx.db, user.email.toUpperCase(), 'admin')).toMatchObject({ before: 'user', after: { id: user.id, role: 'admin' } });
    expect(await setRole(t.ctx.db, `@${user.userName}`, 'user')).toMatchObject({ before: 'admin', after: { role: 'user' } });
    expect(await setRole(t.ctx.db, user.userName, 'admin')).toBeUndefined();
    expect(await setRole(t.ctx.db, '@nobody-here', 'admin')).toBeUndefined();
    expect(await roleOf(user.id)).toBe('user');
  });
});

describe('ADMIN_EMAIL', () => {
  it('promotes its account only once the email is verified (on email verification), and never anyone else', async () => {
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auths/register',
      payload: { fullName: 'The Operator', email: ADMIN_EMAIL, password: TEST_PASSWORD },
    });
    expect(register.statusCode).toBe(201);
    const [operator] = await t.ctx.db.select().from(users).where(eq(users.email, ADMIN_EMAIL));
    const other = await createUser(t.ctx);
    // Boot runs the same check: an unverified account stays a user.
    expect(await promoteAdminEmail(t.ctx.db, t.ctx.config)).toBe(false);
    expect(await roleOf(operator!.id)).toBe('user');

    const token = await lastMailLink(t.dataDir, 'email-verification', ADMIN_EMAIL);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auths/email-verification?token=${token}` })).statusCode).toBe(200);
    expect(await roleOf(operator!.id)).toBe('admin');
    expect(await roleOf(other.id)).toBe('user');
    // Idempotent: nothing left to change.
    expect(await promoteAdminEmail(t.ctx.db, t.ctx.config)).toBe(false);
    expect(await roleOf(operator!.id)).toBe('admin');
  });

  it('promotes a verified account that already exists (the boot check), and on a password reset (which proves the mailbox)', async () => {
    const other = await createTestApp({ ADMIN_EMAIL });
    try {
      const verified = await createUser(other.ctx, { email: ADMIN_EMAIL });
      expect(await promoteAdminEmail(other.ctx.db, other.ctx.config)).toBe(true);
      expect((await other.ctx.db.select().from(users).where(eq(users.id, verified.id)))[0]!.role).toBe('admin');
    } finally {
      await other.close();
    }
    const third = await createTestApp({ ADMIN_EMAIL });
    try {
      const unverified = await createUser(third.ctx, { email: ADMIN_EMAIL, verified: false });
      await new AuthService(third.ctx).mailResetLink(ADMIN_EMAIL);
      const token = await lastMailLink(third.dataDir, 'password-reset', ADMIN_EMAIL);
      const reset = await third.app.inject({
        method: 'POST',
        url: '/api/v1/auths/password-reset',
        payload: { token, newPassword: 'brand-new', confirmPassword: 'brand-new' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await third.ctx.db.select().from(users).where(eq(users.id, unverified.id)))[0]!.role).toBe('admin');
    } finally {
      await third.close();
    }
  });
});
