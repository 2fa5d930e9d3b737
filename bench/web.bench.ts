/**
 * Web: first-load JavaScript (gzip) per route from the Vite build manifest, and Lighthouse
 * (mobile preset, Debian Chromium) performance and accessibility for home, search and watch,
 * against one Glimpse process serving the build with a small seeded catalogue.
 * Usage: npm run bench -- web [--runs 1]   (CHROME_PATH defaults to /usr/bin/chromium)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { seedCatalogue } from './seed-catalogue.ts';
import { fmt, report, startGlimpse, stop, waitFor } from './lib.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const runs = Number(values.runs);
const PORT = 3205;
const webDir = path.resolve('apps/web');
const outDir = path.resolve('bench/tmp/web-dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/glimpse_bench';
const url = base.replace(/\/[^/]*$/, '/glimpse_bench_web');

/** The route modules the router lazy-loads (apps/web/src/app/router.tsx). */
const ROUTES: { name: string; module: string; path: (videoId: string) => string }[] = [
  { name: 'home', module: 'src/features/videos/routes/home.tsx', path: () => '/' },
  { name: 'search', module: 'src/features/search/routes/search.tsx', path: () => '/search?searchText=music' },
  { name: 'watch', module: 'src/app/routes/watch.tsx', path: (id) => `/video/${id}` },
];

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

function build(): Record<string, Chunk> {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync('npx', ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
  return JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
}

/** Chunk keys a key loads before it runs: itself and its static imports, recursively. */
function closure(manifest: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const k of manifest[key]?.imports ?? []) closure(manifest, k, seen);
  return seen;
}

const gz = (file: string) => gzipSync(readFileSync(path.join(outDir, file))).length;
const kb = (n: number) => `${fmt(n / 1024, 1)} KB`;

async function seedWeb(): Promise<string> {
  const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'glimpse_bench_web'`);
  if (exists.rowCount === 0) await admin.query('CREATE DATABASE glimpse_bench_web');
  await admin.end();
  await seedCatalogue(url, 200);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const top = await client.query<{ id: string }>(`SELECT id FROM videos WHERE is_published AND status = 'ready' ORDER BY views DESC LIMIT 1`);
  await client.end();
  return top.rows[0]!.id;
}

interface LighthouseScores {
  performance: number;
  accessibility: number;
  fcp: string;
  lcp: string;
  tbt: string;
  cls: string;
}

async function lighthouseRun(target: string): Promise<LighthouseScores> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  try {
    // Lighthouse's default config is the mobile preset (Moto G Power emulation, slow 4G throttling).
    const result = await lighthouse(target, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    const lhr = result!.lhr;
    const audit = (id: string) => lhr.audits[id]?.displayValue ?? '-';
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
    };
  } finally {
    chrome.kill();
  }
}

const manifest = build();
const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const entry = closure(manifest, entryKey);
const jsRows = ROUTES.map((r) => {
  const keys = new Set([...entry, ...closure(manifest, r.module)]);
  const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  const bytes = files.reduce((n, f) => n + gz(f), 0);
  const lazy = (manifest[r.module]?.dynamicImports ?? []).map((k) => manifest[k]!.file);
  const lazyBytes = lazy.reduce((n, f) => n + gz(f), 0);
  return { name: r.name, files: files.length, bytes, lazyBytes };
});
const home = jsRows.find((r) => r.name === 'home')!;

const lines = [
  `Build: \`vite build --manifest\` of apps/web; gzip = Node zlib default level over each JS file the route loads before rendering (the entry and its static imports, the route's lazy chunk and its static imports).`,
  '',
  '| route | JS files | first-load JS (gzip) | loaded later by the route (gzip) |',
  '|---|---|---|---|',
  ...jsRows.map((r) => `| ${r.name} | ${r.files} | **${kb(r.bytes)}** | ${r.lazyBytes ? kb(r.lazyBytes) : '-'} |`),
  '',
  `- home route first-load JS: **${kb(home.bytes)}** gzip (goal <= 150 KB)`,
  '',
];

const videoId = await seedWeb();
const dataDir = path.resolve('bench/tmp/web-data');
rmSync(dataDir, { recursive: true, force: true });
const server = startGlimpse(PORT, { DATABASE_URL: url, DATA_DIR: dataDir, WEB_DIST: outDir });
try {
  await waitFor(`http://127.0.0.1:${PORT}/api/v1/health`);
  lines.push(
    `Lighthouse ${JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')).version}, mobile preset (default config: emulated mid-range phone, simulated slow 4G, 4x CPU slowdown), Chromium at ${CHROME} headless; Glimpse serves the build itself (one process, precompressed brotli/gzip assets, no CDN) on loopback; catalogue of 200 videos; median performance of ${runs} run(s).`,
    '',
    '| page | performance | accessibility | FCP | LCP | TBT | CLS |',
    '|---|---|---|---|---|---|---|',
  );
  const perf: number[] = [];
  for (const r of ROUTES) {
    const all: LighthouseScores[] = [];
    for (let i = 0; i < runs; i++) all.push(await lighthouseRun(`http://127.0.0.1:${PORT}${r.path(videoId)}`));
    all.sort((a, b) => a.performance - b.performance);
    const s = all[Math.floor(all.length / 2)]!;
    perf.push(s.performance);
    lines.push(`| ${r.name} | **${s.performance}** | **${s.accessibility}** | ${s.fcp} | ${s.lcp} | ${s.tbt} | ${s.cls} |`);
    console.log(lines.at(-1));
  }
  lines.push('', `- Lighthouse performance: ${ROUTES.map((r, i) => `${r.name} ${perf[i]}`).join(', ')} (goal >= 95)`);
} catch (err) {
  lines.push(`Lighthouse could not run here: ${err instanceof Error ? err.message : String(err)}`);
  throw err;
} finally {
  await stop(server);
  report('web', `npm run bench -- web --runs ${runs}`, lines);
}
