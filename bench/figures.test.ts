import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIGURES_END, FIGURES_START, figuresTable, metText, renderFigures, replaceFigures, type FigureReport } from './figures.ts';

const report = (name: string, date: string, figures: FigureReport['figures']): FigureReport => ({ name, date, command: `npm run bench -- ${name}`, machine: '2 cores', figures });

const reports = [
  report('upload', '2026-11-20T08:00:00.000Z', [{ figure: 'ingestion / disk', value: '0.29', goal: '>= 0.5', met: false }]),
  report('api', '2026-11-25T20:16:30.000Z', [
    { figure: 'page 1,000 / page 1', value: '0.99', goal: '<= 2', met: true },
    { figure: 'a | b', value: 'x', goal: '-', met: null },
  ]),
];
const run = { ran: ['api'], startedAt: new Date('2026-11-25T20:15:00.000Z') };

describe('figures table', () => {
  it('renders met as yes / no / -', () => {
    expect([true, false, null].map(metText)).toEqual(['yes', 'no', '-']);
    const rows = renderFigures(reports, run).split('\n').filter((l) => l.startsWith('| ['));
    expect(rows.map((r) => r.split(' | ').at(-2))).toEqual(['yes', '-', 'no']);
    expect(figuresTable(reports[1]!.figures).slice(2).map((r) => r.split(' | ').at(-1))).toEqual(['yes |', '- |']);
  });

  it('lists every report in the README order with its link, its measured time and escaped cells, under a line saying what ran', () => {
    const text = renderFigures(reports, run);
    expect(text.split('\n')[0]).toContain('2026-11-25 20:15 UTC ran: api');
    expect(text.split('\n')[0]).toContain('earlier runs');
    expect(text).toContain('| [API](api.md) | page 1,000 / page 1 | 0.99 | <= 2 | yes | 2026-11-25 20:16 UTC |');
    expect(text).toContain('| [API](api.md) | a \\| b | x | - | - |');
    expect(text.indexOf('[API]')).toBeLessThan(text.indexOf('[Upload](upload.md)'));
    expect(text).toContain('| [Upload](upload.md) | ingestion / disk | 0.29 | >= 0.5 | no | 2026-11-20 08:00 UTC |');
  });

  it('replaces only what is between the markers', () => {
    const readme = `# Results\n\nintro\n\n${FIGURES_START}\n| old | table |\n${FIGURES_END}\n\n## Shortfalls and what would close them\n\n- kept\n`;
    const out = replaceFigures(readme, 'NEW TABLE');
    expect(out).not.toContain('| old | table |');
    expect(out).toBe(`# Results\n\nintro\n\n${FIGURES_START}\n\nNEW TABLE\n\n${FIGURES_END}\n\n## Shortfalls and what would close them\n\n- kept\n`);
    // Regenerating again gives the same text (nothing accumulates around the markers).
    expect(replaceFigures(out, 'NEW TABLE')).toBe(out);
  });

  it('refuses a README without markers', () => {
    expect(() => replaceFigures('# no markers\n', 'x')).toThrow(/figures:start/);
  });
});

describe('the benchmarks', () => {
  // npm run bench regenerates the README only when every <name>.bench.ts has a results/<name>.json.
  it('each reports under its own file name', () => {
    const dir = new URL('.', import.meta.url);
    const names = readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));
    const mismatched = names.filter((f) => {
      const reported = [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\breport\(\s*['`]([a-z-]+)/g)].map((m) => m[1]);
      return !reported.includes(f.replace(/\.bench\.ts$/, ''));
    });
    expect(names.length).toBeGreaterThan(5);
    expect(mismatched).toEqual([]);
  });
});
