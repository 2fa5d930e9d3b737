/**
 * `npm run bench [-- name ...] [--flag value ...]`: runs the named benchmarks (all when none is
 * named), one after another; flags after the names go to each benchmark. Then regenerates the
 * figures table of bench/results/README.md from every bench/results/*.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { updateReadme } from './figures.ts';

const dir = path.dirname(new URL(import.meta.url).pathname);
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('-'));
const names = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
const chosen = names.length ? names : all;
const unknown = chosen.filter((name) => !existsSync(path.join(dir, `${name}.bench.ts`)));
if (unknown.length) {
  console.error(`No benchmark '${unknown.join("', '")}'. Known: ${all.join(', ')}`);
  process.exit(2);
}
const startedAt = new Date();
const failed: string[] = [];
for (const name of chosen) {
  console.log(`\n### ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.bench.ts`), ...flags], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(name);
}
const resultsDir = path.join(dir, 'results');
// Only once every benchmark has figures: a partial first run would otherwise drop the others' rows.
const missing = all.filter((name) => !existsSync(path.join(resultsDir, `${name}.json`)));
if (missing.length) console.error(`\nREADME table kept: no figures yet from ${missing.join(', ')} (run them to regenerate it)`);
else if (updateReadme(resultsDir, { ran: chosen, failed, startedAt })) console.log(`\nFigures table regenerated in ${path.join(resultsDir, 'README.md')}`);
else console.error(`\n${path.join(resultsDir, 'README.md')} has no figures markers: table not regenerated`);
process.exit(failed.length ? 1 : 0);
