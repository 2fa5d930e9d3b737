/**
 * Search scale: p95 latency of GET /api/v1/videos?query=... (relevance, first page) at several
 * catalogue sizes, over a query mix with very common words, a two-word query, a rare stem and a
 * typo; the growth ratio from the smallest to the largest size. Each size is seeded into its own
 * database (glimpse_bench_<n>, kept for re-runs) and served by one Glimpse process.
 * Usage: npm run bench -- search [--sizes 10000,100000,1000000] [--requests 200] [--reseed]
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { seedCatalogue } from './seed-catalogue.ts';
import { fmt, ratio, report, startGlimpse, stop, waitFor } from './lib.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    requests: { type: 'string', default: '200' },
    reseed: { type: 'boolean', default: false },
    label: { type: 'string', default: '' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const perQuery = Number(values.requests);
const PORT = 3204;
/** In the generated catalogue each of the first words is in roughly 1 video in 7 (very common). */
const MIX = ['music', 'cooking', 'travel', 'video', 'space history', 'coffee recipe', 'robotics', 'musik', 'typscript'];
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/glimpse_bench';
const urlFor = (n: number) => base.replace(/\/[^/]*$/, `/glimpse_bench_${n}`);

async function ensureSeeded(n: number): Promise<void> {
  const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  const name = `glimpse_bench_${n}`;
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const client = new pg.Client({ connectionString: urlFor(n) });
  await client.connect();
  const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM videos').catch(() => ({ rows: [{ n: '0' }] }));
  await client.end();
  // Search reads no likes or comments: at most 1M of each keeps the 1M-video seed short.
  if (values.reseed || Number(count.rows[0]!.n) !== n) await seedCatalogue(urlFor(n), n, { reactions: Math.min(n * 10, 1_000_000) });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Sequential requests (one connection), so the figure is the query's latency, not queueing. */
async function measure(n: number): Promise<{ all: number[]; byQuery: Map<string, number[]> }> {
  const dataDir = path.resolve(`bench/tmp/search-${n}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = startGlimpse(PORT, { DATABASE_URL: urlFor(n), DATA_DIR: dataDir });
  try {
    await waitFor(`http://127.0.0.1:${PORT}/api/v1/health`);
    const byQuery = new Map<string, number[]>(MIX.map((q) => [q, []]));
    const get = async (q: string) => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/videos?query=${encodeURIComponent(q)}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${q}: ${res.status}`);
      return performance.now() - t0;
    };
    for (const q of MIX) for (let i = 0; i < 5; i++) await get(q); // warm caches and plans
    for (let i = 0; i < perQuery; i++) for (const q of MIX) byQuery.get(q)!.push(await get(q));
    const all = [...byQuery.values()].flat().sort((a, b) => a - b);
    for (const v of byQuery.values()) v.sort((a, b) => a - b);
    return { all, byQuery };
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: { n: number; p50: number; p95: number; p99: number; byQuery: Map<string, number[]> }[] = [];
for (const n of sizes) {
  await ensureSeeded(n);
  const { all, byQuery } = await measure(n);
  results.push({ n, p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99), byQuery });
  console.log(`${n} videos: p95 ${fmt(percentile(all, 95))} ms`);
}
const first = results[0]!;
const last = results.at(-1)!;
report(`search${values.label ? `-${values.label}` : ''}`, `npm run bench -- search --sizes ${values.sizes} --requests ${perQuery}${values.label ? ` --label ${values.label}` : ''}`, [
  `Query mix (relevance, first page of 10, anonymous): ${MIX.map((q) => `"${q}"`).join(', ')}; ${perQuery} rounds of the mix per size, sequential over one connection, after a warm-up. Catalogues from bench/seed-catalogue.ts (titles and descriptions drawn from 40 words, so single words are very common).`,
  '',
  '| videos | p50 ms | p95 ms | p99 ms |',
  '|---|---|---|---|',
  ...results.map((r) => `| ${r.n} | ${fmt(r.p50)} | **${fmt(r.p95)}** | ${fmt(r.p99)} |`),
  '',
  '## p95 per query (ms)',
  '',
  `| query | ${results.map((r) => `${r.n}`).join(' | ')} |`,
  `|---|${results.map(() => '---').join('|')}|`,
  ...MIX.map((q) => `| ${q} | ${results.map((r) => fmt(percentile(r.byQuery.get(q)!, 95))).join(' | ')} |`),
  '',
  `- p95 at ${last.n} videos: **${fmt(last.p95)} ms** (goal <= 50 ms at 1,000,000)`,
  `- growth ratio p95(${last.n}) / p95(${first.n}) = **${fmt(ratio(last.p95, first.p95))}** for ${fmt(last.n / first.n, 0)}x the videos`,
]);
