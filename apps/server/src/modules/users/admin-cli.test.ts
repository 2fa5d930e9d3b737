import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../boot.ts';
import { ADMIN_USAGE } from '../../cli.ts';
import { loadConfig } from '../../config.ts';
import { moderationLog, users } from '../../db/schema.ts';
import type { AppContext } from '../../context.ts';
import { createUser, engine, freshDatabase, TEST_ENV } from '../../../test/harness.ts';
import { freePort, startProcess } from '../../../test/processes.ts';

// `npm run admin` as a real process, on the engine of this run: PGlite in DATA_DIR/db, or DATABASE_URL.
let env: Record<string, string>;
let dataDir: string;
let dropDatabase = async () => {};
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-admin-cli-'));
  env = { DATA_DIR: dataDir };
  if (engine === 'pg') {
    const fresh = await freshDatabase();
    await fresh.database.close();
    env.DATABASE_URL = fresh.url!;
    dropDatabase = fresh.drop;
  }
});
afterAll(async () => {
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

/** Opens the instance's database in this process (PGlite allows one process at a time), runs `use`, closes it. */
async function withDb<T>(use: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(loadConfig({ ...TEST_ENV, ...env }));
  try {
    return await use(ctx);
  } finally {
    await ctx.database.close();
  }
}

async function run(command: 'admin' | 'migrate', args: string[], extraEnv: Record<string, string> = {}) {
  const p = startProcess(command, { ...env, ...extraEnv }, args);
  const code = await p.exited;
  return { code, output: p.output() };
}

const roleOf = (email: string) => withDb(async (ctx) => (await ctx.db.select().from(users).where(eq(users.email, email)))[0]?.role);

describe('npm run admin', () => {
  let alice: { id: string; email: string; userName: string };
  beforeAll(async () => {
    alice = await withDb((ctx) => createUser(ctx, { fullName: 'Alice', userName: 'alice', email: 'alice@example.com' }));
  });

  it('grants a role by email (any case) and revokes it by @handle', async () => {
    const grant = await run('admin', ['grant', 'ALICE@example.com', 'moderator']);
    expect(grant).toMatchObject({ code: 0, output: expect.stringContaining('@alice (alice@example.com) is now moderator (was user).') });
    expect(await roleOf(alice.email)).toBe('moderator');

    const revoke = await run('admin', ['revoke', '@alice']);
    expect(revoke).toMatchObject({ code: 0, output: expect.stringContaining('@alice (alice@example.com) is now user (was moderator).') });
    expect(await roleOf(alice.email)).toBe('user');

    // Both are in the moderation log, from the command line (no account acted); a revoke that changes nothing is not.
    expect((await run('admin', ['revoke', '@alice'])).code).toBe(0);
    const log = await withDb((ctx) =>
      ctx.db.select().from(moderationLog).where(eq(moderationLog.targetId, alice.id)).orderBy(moderationLog.createdAt),
    );
    expect(log.map((l) => [l.action, l.actorId, l.fromCli, l.targetLabel])).toEqual([
      ['role.moderator', null, true, 'Alice (@alice)'],
      ['role.user', null, true, 'Alice (@alice)'],
    ]);
  });

  it('exits 1 with a message for an unknown account', async () => {
    const res = await run('admin', ['grant', 'nobody@example.com', 'admin']);
    expect(res.code).toBe(1);
    expect(res.output).toContain("No account with the email or handle 'nobody@example.com'.");
  });

  it('exits 2 with the usage for a bad role or command line, and changes nothing', async () => {
    for (const args of [['grant', '@alice', 'superuser'], ['revoke', '@alice', 'admin'], ['promote', '@alice', 'admin']]) {
      const res = await run('admin', args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.output).toContain(ADMIN_USAGE);
    }
    expect(await roleOf(alice.email)).toBe('user');
  });

  // PGlite has one owner: the command refuses beside a running server. A PostgreSQL server is shared: it runs.
  it(engine === 'pglite' ? 'refuses clearly while a server holds the same DATA_DIR, and changes nothing' : 'runs beside a server on the same DATABASE_URL', async () => {
    const server = startProcess('serve', { ...env, HOST: '127.0.0.1', PORT: String(await freePort()) });
    try {
      await server.ready;
      const res = await run('admin', ['grant', '@alice', 'admin']);
      if (engine === 'pglite') {
        expect(res.code).toBe(1);
        expect(res.output).toContain(`The embedded database in ${path.join(dataDir, 'db')} is already in use by another process`);
      } else {
        expect(res).toMatchObject({ code: 0, output: expect.stringContaining('is now admin') });
        expect((await run('admin', ['revoke', '@alice'])).code).toBe(0);
      }
    } finally {
      await server.kill();
    }
    expect(await roleOf(alice.email)).toBe('user');
  });
});

describe('ADMIN_EMAIL at boot', () => {
  it('makes its account an admin once the email is verified, not before', async () => {
    const op = await withDb((ctx) => createUser(ctx, { email: 'op@example.com', verified: false }));
    expect((await run('migrate', [], { ADMIN_EMAIL: 'OP@example.com' })).code).toBe(0);
    expect(await roleOf(op.email)).toBe('user');
    await withDb((ctx) => ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, op.id)));
    expect((await run('migrate', [], { ADMIN_EMAIL: 'OP@example.com' })).code).toBe(0);
    expect(await roleOf(op.email)).toBe('admin');
  });
});
