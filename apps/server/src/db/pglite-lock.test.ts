import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_NEEDS_POSTGRES } from '../cli.ts';
import { freePort, startProcess, type ServerProcess } from '../../test/processes.ts';
import { DatabaseLockedError, lockDatabaseDir, type LockHolder } from './pglite-lock.ts';

let tmp: string;
const running: ServerProcess[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'glimpse-lock-'));
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.kill('SIGKILL')));
  await rm(tmp, { recursive: true, force: true });
});

/** The pid of a process that has exited: nothing runs under it now. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** A DATA_DIR/db path whose DATA_DIR exists (the lock file sits beside db). */
function dbDir(name: string): string {
  mkdirSync(path.join(tmp, name), { recursive: true });
  return path.join(tmp, name, 'db');
}

const holder = (over: Partial<LockHolder>): LockHolder => ({
  pid: 1,
  host: hostname(),
  command: 'node src/main.ts serve',
  startedAt: new Date().toISOString(),
  ...over,
});

describe('the embedded database lock', () => {
  it('names this process in the lock file and refuses a second open until released', () => {
    const dir = dbDir('same-process');
    const release = lockDatabaseDir(dir, 'test command');
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), command: 'test command' });
    expect(() => lockDatabaseDir(dir)).toThrow(DatabaseLockedError);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDatabaseDir(dir)();
  });

  it('takes over a lock left by a process that no longer runs on this host', () => {
    const dir = dbDir('stale');
    const lockFile = `${dir}.lock`;
    for (const stale of [holder({ pid: deadPid() }), holder({ pid: 1, bootId: 'a boot before the last reboot' })]) {
      writeFileSync(lockFile, JSON.stringify(stale));
      const release = lockDatabaseDir(dir);
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
      release();
    }
    // Unreadable (cut short by a crash mid-write): no live process is named, so it is taken over too.
    writeFileSync(lockFile, '{"pid": 12');
    lockDatabaseDir(dir)();
  });

  it('refuses a live holder here and any holder on another host, naming it and what to do', () => {
    const dir = dbDir('live');
    const lockFile = `${dir}.lock`;
    const live = holder({ pid: process.ppid, command: 'node src/main.ts worker' });
    writeFileSync(lockFile, JSON.stringify(live));
    expect(() => lockDatabaseDir(dir)).toThrow(
      expect.objectContaining({ message: expect.stringContaining(`pid ${process.ppid} on host ${hostname()}`) }),
    );
    const elsewhere = holder({ pid: deadPid(), host: 'another-machine' });
    writeFileSync(lockFile, JSON.stringify(elsewhere));
    let err: Error | undefined;
    try {
      lockDatabaseDir(dir);
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(DatabaseLockedError);
    expect(err!.message).toContain(`pid ${elsewhere.pid} on host another-machine`);
    expect(err!.message).toContain('command: node src/main.ts serve');
    expect(err!.message).toContain('set DATABASE_URL');
    expect(err!.message).toContain(`delete ${lockFile}`);
    // Refused, not touched.
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toEqual(elsewhere);
  });
});

describe('one process per embedded database', () => {
  it('a second server on the same DATA_DIR refuses to start, naming the first; after a SIGKILL the stale lock is recovered', async () => {
    const dataDir = path.join(tmp, 'serve');
    const env = (port: number) => ({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) });
    const port = await freePort();
    const first = startProcess('serve', env(port));
    running.push(first);
    await first.ready;
    const base = `http://127.0.0.1:${port}/api/v1`;
    const account = { fullName: 'Lock Test', email: 'lock@example.com', password: 'secret123' };
    const created = await fetch(`${base}/auths/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    expect(created.status).toBe(201);

    const second = startProcess('serve', env(await freePort()));
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The embedded database in ${path.join(dataDir, 'db')} is already in use by another process`);
    expect(second.output()).toContain(`pid ${first.child.pid} on host ${hostname()}`);
    expect(second.output()).toMatch(/command: .*src\/main\.ts serve/);
    expect(second.output()).toContain('set DATABASE_URL for every process');
    expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace

    // The standalone worker refuses the embedded database before touching it.
    const worker = startProcess('worker', { DATA_DIR: dataDir });
    expect(await worker.exited).toBe(1);
    expect(worker.output().trim()).toBe(WORKER_NEEDS_POSTGRES);

    // The first server was not disturbed.
    expect((await fetch(`${base}/health`)).status).toBe(200);

    // Killed without a chance to clean up: its lock stays behind, and the next start takes it over.
    await first.kill('SIGKILL');
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(true);
    const restarted = startProcess('serve', env(port));
    running.push(restarted);
    await restarted.ready;
    const login = await fetch(`${base}/auths/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    // The account made before the kill is there (unverified: 403, an unknown one would be 401).
    expect(login.status).toBe(403);
    expect(await restarted.kill('SIGTERM')).toBe(0);
    // A clean stop releases it.
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 120_000);
});
