import { defineConfig } from 'vitest/config';

const serverTests = ['apps/server/src/**/*.test.ts', 'packages/**/*.test.ts', 'bench/**/*.test.ts'];
const server = (name: string, env: Record<string, string>, include = serverTests, fileParallelism = true, exclude: string[] = []) => ({
  test: {
    name,
    include,
    exclude: ['**/node_modules/**', ...exclude],
    fileParallelism,
    environment: 'node' as const,
    globalSetup: ['apps/server/test/global-setup.ts'],
    setupFiles: ['apps/server/test/setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// The server suite runs on PGlite, and a second time on the PostgreSQL server when
// TEST_DATABASE_URL is set.
const projects = [server('server', { TEST_DB_ENGINE: 'pglite' })];
// The media corpus, engine, progressive-mp4, bounds and live-ingest tests exercise the media
// engine (most of their minutes are encodes), and the PGlite lock tests the embedded files, not the
// database server: once is enough.
const onceOnly = [
  'apps/server/src/modules/transcode/corpus.test.ts',
  'apps/server/src/modules/transcode/progressive.test.ts',
  'apps/server/src/modules/transcode/bounds.test.ts',
  'apps/server/src/modules/lives/live-ingest.test.ts',
  'apps/server/src/media/engine.test.ts',
  'apps/server/src/db/pglite-lock.test.ts',
];
if (process.env.TEST_DATABASE_URL) projects.push(server('server-pg', { TEST_DB_ENGINE: 'pg' }, serverTests, true, onceOnly));
// `npm run test:reliability`: hostile input, authorization matrix, faults and load.
if (process.env.RELIABILITY) {
  projects.length = 0;
  // One file at a time: the load test's figures must not include another file's work.
  projects.push(server('reliability', { TEST_DB_ENGINE: 'pglite' }, ['apps/server/reliability/**/*.test.ts'], false));
}

export default defineConfig({
  test: {
    projects: [
      ...projects,
      {
        extends: 'apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          // Screens render lazily through the router; a busy 2-core machine needs headroom.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
