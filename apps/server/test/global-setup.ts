import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteExtensions, wrapPglite, wrapPool } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}

/**
 * Migrates once per run: a PGlite data dir dumped to a tarball that each test file loads, and,
 * with TEST_DATABASE_URL, a template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glimpse-tpl-'));
  const cleanups: (() => Promise<void>)[] = [() => rm(dir, { recursive: true, force: true })];

  if ((project.config.env?.TEST_DB_ENGINE ?? process.env.TEST_DB_ENGINE) === 'pg') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB_ENGINE=pg needs TEST_DATABASE_URL');
    const name = `glimpse_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const tplUrl = new URL(url);
    tplUrl.pathname = `/${name}`;
    const database = wrapPool(new pg.Pool({ connectionString: tplUrl.toString(), max: 1 }));
    await migrate(database);
    await database.close();
    project.provide('pgTemplate', name);
    cleanups.push(async () => {
      const left = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'glimpse_t\\_%' AND datname LIKE $1`,
        [`%_${process.pid}_%`],
      );
      for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    project.provide('pgliteTemplate', '');
  } else {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    await migrate(wrapPglite(client));
    const dump = await client.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await client.close();
    project.provide('pgliteTemplate', file);
    project.provide('pgTemplate', '');
  }

  return async () => {
    for (const c of cleanups.reverse()) await c();
  };
}
