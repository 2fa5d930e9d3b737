import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { PgListener } from './pg-listener.ts';
import { lockDatabaseDir } from './pglite-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What a repository runs its SQL on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  engine: 'pglite' | 'pg';
  db: Db;
  /** Runs a script of several statements on one connection (migrations); rolls back on failure. */
  exec(sqlText: string): Promise<void>;
  /**
   * Calls `onMessage` with the payload of each NOTIFY on `channel` (`pg_notify` in SQL): from every
   * process on a server (on one connection beside the pool, PgListener), from this process on
   * PGlite. Resolves to the function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const channelName = (channel: string) => {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`Bad channel name: ${channel}`);
  return channel;
};

export const pgliteExtensions = { pg_trgm };

export function wrapPglite(client: PGlite, release: () => void = () => {}): Database {
  return {
    engine: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Db,
    exec: async (text) => {
      try {
        await client.exec(text);
      } catch (err) {
        await client.exec('ROLLBACK').catch(() => {});
        throw err;
      }
    },
    listen: (channel, onMessage) => client.listen(channelName(channel), onMessage),
    close: async () => {
      await client.close();
      release();
    },
  };
}

export function wrapPool(pool: pg.Pool): Database {
  const listener = new PgListener(pool.options);
  return {
    engine: 'pg',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    exec: async (text) => {
      const conn = await pool.connect();
      try {
        await conn.query(text);
      } catch (err) {
        // A failed script leaves its transaction open on this connection.
        await conn.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        conn.release();
      }
    },
    listen: (channel, onMessage) => listener.listen(channelName(channel), onMessage),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** PostgreSQL server when a URL is given, else PGlite in-process with its files in dataDir. */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir?: string; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    // No JIT: the app's queries are short, and compiling one whose estimate crosses jit_above_cost
    // (a search's capped scans are costed as if they ran to the end) took 44 ms of a 46 ms search.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, options: '-c jit=off' });
    // A dropped connection must not crash the process; the pool replaces it on the next query.
    // The pool only listens on idle clients: a backend killed while its client is checked out
    // (between two statements of a transaction) would emit an unhandled 'error' and end the process.
    // The statement in flight still fails, and a client in error is not returned to the pool.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return wrapPool(pool);
  }
  if (!opts.pgliteDir) return wrapPglite(await PGlite.create('memory://', { extensions: pgliteExtensions }));
  // PGlite takes no lock of its own: a second process on the same files corrupts them.
  const release = lockDatabaseDir(opts.pgliteDir);
  try {
    return wrapPglite(await PGlite.create(opts.pgliteDir, { extensions: pgliteExtensions }), release);
  } catch (err) {
    release();
    throw err;
  }
}

/** Runs raw SQL and returns its rows (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
