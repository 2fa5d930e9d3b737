import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant: serialises migrators of several processes sharing one PostgreSQL server.
const LOCK_KEY = 7_242_001;

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
}

async function appliedNames(database: Database): Promise<Set<string>> {
  const done = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations`);
  return new Set(done.map((r) => r.name));
}

/**
 * Applies every migration not yet applied, each in its own transaction. Returns the names applied.
 * `before` stops at the first migration named from it on (upgrade tests start from an older schema).
 */
export async function migrate(database: Database, opts: { before?: string } = {}): Promise<string[]> {
  await database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  let applied = await appliedNames(database);
  const ran: string[] = [];
  for (const file of migrationFiles()) {
    if (opts.before && file >= opts.before) break;
    if (applied.has(file)) continue;
    const text = readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    const name = file.replace(/'/g, "''");
    try {
      await database.exec(
        `BEGIN;\nSELECT pg_advisory_xact_lock(${LOCK_KEY});\n${text}\n;INSERT INTO schema_migrations (name) VALUES ('${name}');\nCOMMIT;`,
      );
      ran.push(file);
    } catch (err) {
      // Another process may have applied it while we waited for the lock.
      applied = await appliedNames(database);
      if (!applied.has(file)) throw err;
    }
  }
  return ran;
}
