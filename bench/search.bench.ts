/**
 * Search scale: p95 latency of GET /api/v1/videos?query=... (relevance, first page) at several
 * catalogue sizes, per query class (common, medium and rare words, two and three words, misspelled
 * words), and the growth ratio from the smallest to the largest size. The catalogue's titles and
 * descriptions are real English words drawn by Zipf rank (bench/seed-catalogue.ts, which needs
 * /usr/share/dict/american-english: apt-get install -y wamerican). Each size is seeded into its own
 * database beside BENCH_DATABASE_URL (`<its name>_<n>`, created when missing, kept for re-runs) and
 * served by one Glimpse process.
 * Usage: npm run bench -- search [--sizes 10000,100000,1000000] [--requests 20] [--reseed]
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadVocabulary, seedCatalogue, videoText } from './seed-catalogue.ts';
import { benchDatabaseUrl, ensureDatabase, fmt, ratio, report, startGlimpse, stop, waitFor, type Figure } from './lib.ts';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    requests: { type: 'string', default: '20' },
    reseed: { type: 'boolean', default: false },
    label: { type: 'string', default: '' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const perQuery = Number(values.requests);
const PORT = 3204;
const GOAL_MS = 50;
/** The goal holds at this catalogue size; a run that stops short of it measures no goal. */
const GOAL_SIZE = 1_000_000;
const urlFor = (n: number) => benchDatabaseUrl(String(n));

async function ensureSeeded(n: number): Promise<void> {
  const url = await ensureDatabase(urlFor(n));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM videos');
  await client.end();
  // Search reads no likes or comments: at most 1M of each keeps the 1M-video seed short.
  if (values.reseed || Number(count.rows[0]!.n) !== n) await seedCatalogue(url, n, { reactions: Math.min(n * 10, 1_000_000) });
}

type QueryClass = 'common word' | 'medium word' | 'rare word' | 'two words' | 'three words' | 'misspelled';
/** `from`: where its words come from (Zipf ranks, or a seeded video's title). */
interface Query {
  cls: QueryClass;
  q: string;
  from: string;
}
const CLASSES: QueryClass[] = ['common word', 'medium word', 'rare word', 'two words', 'three words', 'misspelled'];

/** One letter of a word dropped (not the first), so that the result is no word of the vocabulary. */
function misspell(word: string, known: Set<string>): string {
  for (let i = Math.floor(word.length / 2); i < word.length; i++) {
    const typo = word.slice(0, i) + word.slice(i + 1);
    if (!known.has(typo)) return typo;
  }
  return `${word}x`;
}

/**
 * The query mix, from the vocabulary's Zipf ranks (rank 1 is the most frequent word; English
 * stop words, which the search ignores, are skipped) and from seeded titles (real co-occurring words).
 */
async function queryMix(url: string): Promise<Query[]> {
  const vocabulary = loadVocabulary();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ w: string }>(
    `SELECT w FROM unnest($1::text[]) WITH ORDINALITY AS t(w, i) WHERE to_tsvector('english', w) <> ''::tsvector ORDER BY i`,
    [vocabulary.slice(0, 60_000)],
  );
  await client.end();
  const content = rows.map((r) => r.w);
  const known = new Set(vocabulary);
  const at = (rank: number) => content[rank - 1]!;
  const long = (from: number) => content.slice(from).find((w) => w.length >= 7)!;
  const titleWords = (g: number, count: number) => videoText(vocabulary, g).title.filter((w) => content.includes(w)).slice(0, count).join(' ');
  return [
    ...[1, 3, 10].map((r) => ({ cls: 'common word' as const, q: at(r), from: `rank ${r}` })),
    ...[100, 300, 1000].map((r) => ({ cls: 'medium word' as const, q: at(r), from: `rank ${r}` })),
    ...[10_000, 30_000, 50_000].map((r) => ({ cls: 'rare word' as const, q: at(r), from: `rank ${r}` })),
    { cls: 'two words', q: `${at(2)} ${at(200)}`, from: 'ranks 2, 200' },
    { cls: 'two words', q: `${at(50)} ${at(5000)}`, from: 'ranks 50, 5000' },
    { cls: 'two words', q: titleWords(4242, 2), from: "video 4242's title" },
    { cls: 'three words', q: titleWords(777, 3), from: "video 777's title" },
    { cls: 'three words', q: `${at(5)} ${at(60)} ${at(2000)}`, from: 'ranks 5, 60, 2000' },
    { cls: 'misspelled', q: misspell(long(100), known), from: 'a letter dropped, rank >= 100' },
    { cls: 'misspelled', q: misspell(long(3000), known), from: 'a letter dropped, rank >= 3000' },
    { cls: 'misspelled', q: `${at(20)} ${misspell(long(800), known)}`, from: 'rank 20 and a letter dropped, rank >= 800' },
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Sequential requests (one connection), so the figure is the query's latency, not queueing. */
async function measure(n: number, mix: { q: string }[]): Promise<Map<string, number[]>> {
  const dataDir = path.resolve(`bench/tmp/search-${n}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = startGlimpse(PORT, { DATABASE_URL: urlFor(n), DATA_DIR: dataDir });
  try {
    await waitFor(`http://127.0.0.1:${PORT}/api/v1/health`);
    const byQuery = new Map<string, number[]>(mix.map(({ q }) => [q, []]));
    const get = async (q: string) => {
      const t0 = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/videos?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { data: { data: unknown[] } };
      if (res.status !== 200) throw new Error(`${q}: ${res.status}`);
      return { ms: performance.now() - t0, hits: body.data.data.length };
    };
    for (const { q } of mix) {
      const { hits } = await get(q); // warms caches and plans
      if (n === sizes.at(-1)) console.log(`  "${q}": ${hits} on the first page`);
    }
    for (let i = 0; i < perQuery; i++) for (const { q } of mix) byQuery.get(q)!.push((await get(q)).ms);
    for (const v of byQuery.values()) v.sort((a, b) => a - b);
    return byQuery;
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const p95 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 95);
const results: { n: number; all: number[]; byQuery: Map<string, number[]> }[] = [];
let mix: Query[] = [];
for (const n of sizes) {
  await ensureSeeded(n);
  if (mix.length === 0) mix = await queryMix(urlFor(n));
  const byQuery = await measure(n, mix);
  const all = [...byQuery.values()].flat().sort((a, b) => a - b);
  results.push({ n, all, byQuery });
  console.log(`${n} videos: p95 ${fmt(percentile(all, 95))} ms`);
}
const first = results[0]!;
const last = results.at(-1)!;
const classTimes = (r: (typeof results)[number], cls: QueryClass) => mix.filter((m) => m.cls === cls).flatMap((m) => r.byQuery.get(m.q)!);
const load = (await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ');
/** 10000 -> 10k, 1000000 -> 1M. */
const short = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n));
const lastP95 = percentile(last.all, 95);
const classP95 = CLASSES.map((c) => p95(classTimes(last, c)));
const growth = ratio(lastP95, percentile(first.all, 95));
const figures: Figure[] = [
  {
    figure: `p95 at ${results.map((r) => short(r.n)).join(' / ')} videos, ${mix.length} queries in ${CLASSES.length} classes`,
    value: `${results.map((r) => fmt(percentile(r.all, 95), 1)).join(' / ')} ms (p50 ${results.map((r) => fmt(percentile(r.all, 50), 1)).join(' / ')} ms; load ${load})`,
    goal: `<= ${GOAL_MS} ms at ${short(GOAL_SIZE)}`,
    met: last.n >= GOAL_SIZE ? lastP95 <= GOAL_MS : null,
  },
  { figure: `p95 at ${short(last.n)} by class: ${CLASSES.join(' / ')}`, value: `${classP95.map((v) => fmt(v, 1)).join(' / ')} ms`, goal: `<= ${GOAL_MS} ms at ${short(GOAL_SIZE)}`, met: last.n >= GOAL_SIZE ? classP95.every((v) => v <= GOAL_MS) : null },
  { figure: `growth p95(${short(last.n)}) / p95(${short(first.n)})`, value: `${fmt(growth)} for ${fmt(last.n / first.n, 0)}x the videos`, goal: '-', met: null },
];
report(`search${values.label ? `-${values.label}` : ''}`, `npm run bench -- search --sizes ${values.sizes} --requests ${perQuery}${values.label ? ` --label ${values.label}` : ''}`, [
  `The machine is shared with other helpers' builds and tests (load average ${load} on 2 cores at the end of the run): latencies include waiting for a CPU.`,
  '',
  `Query mix (relevance, first page of 10, anonymous): ${mix.length} queries in ${CLASSES.length} classes, ${perQuery} rounds of the mix per size, sequential over one connection, after a warm-up.`,
  'Catalogue: bench/seed-catalogue.ts, titles of 3-12 and descriptions of 10-80 words drawn by Zipf rank (exponent 1) from the',
  `${loadVocabulary().length} lower-case words of Debian's wamerican list (shuffled with a fixed seed); "rank r" below is the r-th most frequent word the search does not ignore.`,
  '',
  `| videos | p50 ms | p95 ms | p99 ms | p95 / goal ${GOAL_MS} ms |`,
  '|---|---|---|---|---|',
  ...results.map((r) => `| ${r.n} | ${fmt(percentile(r.all, 50))} | **${fmt(percentile(r.all, 95))}** | ${fmt(percentile(r.all, 99))} | ${fmt(ratio(percentile(r.all, 95), GOAL_MS))} |`),
  '',
  '## p95 per query class (ms)',
  '',
  `| class | ${results.map((r) => `${r.n}`).join(' | ')} | goal |`,
  `|---|${results.map(() => '---').join('|')}|---|`,
  ...CLASSES.map((c) => `| ${c} | ${results.map((r) => fmt(p95(classTimes(r, c)))).join(' | ')} | ${GOAL_MS} |`),
  '',
  '## p95 per query (ms)',
  '',
  `| class | query | words from | ${results.map((r) => `${r.n}`).join(' | ')} |`,
  `|---|---|---|${results.map(() => '---').join('|')}|`,
  ...mix.map(({ cls, q, from }) => `| ${cls} | ${q} | ${from} | ${results.map((r) => fmt(percentile(r.byQuery.get(q)!, 95))).join(' | ')} |`),
  '',
  `- p95 at ${last.n} videos: **${fmt(lastP95)} ms** (goal <= ${GOAL_MS} ms at 1,000,000)`,
  `- growth ratio p95(${last.n}) / p95(${first.n}) = **${fmt(growth)}** for ${fmt(last.n / first.n, 0)}x the videos`,
], figures);
