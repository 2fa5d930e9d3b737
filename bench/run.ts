/**
 * `npm run bench [-- name ...] [--flag value ...]`: runs the named benchmarks (all when none is
 * named), one after another; flags after the names go to each benchmark.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

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
let failed = 0;
for (const name of chosen) {
  const file = path.join(dir, `${name}.bench.ts`);
  if (!existsSync(file)) {
    console.error(`No benchmark '${name}'. Known: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n### ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...flags], { stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
