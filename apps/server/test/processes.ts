import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { newId } from '../src/lib/ids.ts';
import { TEST_ENV } from './harness.ts';

/** apps/server: where `tsx src/main.ts <command>` runs, as `npm start` / `npm run worker` do. */
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The PostgreSQL server the process-level suites create their scratch databases on. */
export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new empty database on the PostgreSQL server; `drop` removes it (closing any connection left). */
export async function scratchDatabase(prefix = 'glimpse_rel'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${newId().replace(/-/g, '').slice(-10)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}) };
}

/** One statement on the admin connection. */
export async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves once it serves (or, for the worker, has started); rejects if it exits first. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** Signals the whole process group (tsx, node and any ffmpeg child). */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `tsx src/main.ts <command>` as its own process group, like `npm start` / `npm run worker`;
 * `entry` runs another script of apps/server that calls the same CLI (test/fixtures).
 */
export function startProcess(
  command: 'serve' | 'worker' | 'seed' | 'migrate' | 'admin',
  env: Record<string, string>,
  args: string[] = [],
  entry = 'src/main.ts',
): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, command, ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...TEST_ENV, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const marker = command === 'worker' ? /worker started/ : /Glimpse is running at/;
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (marker.test(output)) resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => reject(new Error(`${command} exited (${code}) before it was ready:\n${output}`)));
  });
  ready.catch(() => {});
  return {
    child,
    output: () => output,
    ready,
    exited,
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
      return exited;
    },
  };
}
