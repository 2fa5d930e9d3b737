import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { zodFreeFiles } from './zod-free-files.ts';

/** Runtime imports of a file (type-only imports vanish from the bundle). */
const runtimeImports = (source: string) =>
  [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]!).concat(
    [...source.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!),
  );

// The subpath exports are what the web app's first loads import instead of the zod-laden index; the
// build gives them a chunk of their own (apps/web/vite.config.ts), so one zod import here would put
// zod back on every page's first load (ADR 017).
describe('the contract subpath exports', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string> };
  const files = zodFreeFiles(pkg.exports);

  it.each(files)('%s imports nothing at run time but other subpath exports', (file) => {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    const outside = runtimeImports(source).filter((spec) => !files.includes(spec.replace(/^\.\//, '')));
    expect(outside).toEqual([]);
  });

  it('recognises a runtime import', () => {
    expect(runtimeImports("import { z } from 'zod';\nimport type { A } from './a.ts';\nexport * from './b.ts';")).toEqual(['zod', './b.ts']);
  });
});
