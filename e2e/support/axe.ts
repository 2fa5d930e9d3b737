import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

// axe-core (a dev dependency). Evaluated in the page rather than added as a
// <script>: the app's CSP (script-src 'self') refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

declare global {
  interface Window {
    axe?: {
      run: (
        context: object,
        options: object,
      ) => Promise<{ violations: { id: string; impact: Impact | null; help: string; nodes: { target: string[]; any: { message: string }[]; all: { message: string }[] }[] }[] }>;
    };
  }
}

export interface AxeOptions {
  /** CSS selectors of the parts to check; the whole document when empty. */
  include?: string[];
  /** Only violations of these impacts count (all by default). */
  impacts?: Impact[];
  /** axe rule tags to run (WCAG 2.0 and 2.1 A/AA by default). */
  tags?: string[];
  /** Only these rules, by id (instead of tags). */
  rules?: string[];
}

const WCAG21_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The WCAG 2 A/AA violations axe finds, one line each (rule, impact, help, the elements).
 * label-content-name-mismatch (WCAG 2.5.3: a control's name contains its visible text) is
 * still "experimental" in axe, so it is switched on by name.
 */
export async function axeViolations(page: Page, opts: AxeOptions = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ include, impacts, tags, rules }) => {
      const context = include.length > 0 ? { include: include.map((s) => [s]) } : document;
      const result = await window.axe!.run(context, {
        runOnly: rules.length > 0 ? { type: 'rule', values: rules } : { type: 'tag', values: tags },
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
      });
      return result.violations
        .filter((v) => impacts.length === 0 || (v.impact !== null && impacts.includes(v.impact)))
        .map((v) => {
          const nodes = v.nodes.map((n) => `${n.target.join(' ')} (${[...n.any, ...n.all].map((c) => c.message).join('; ')})`);
          return `${v.id} [${v.impact}] (${v.help}): ${nodes.join(', ')}`;
        });
    },
    { include: opts.include ?? [], impacts: opts.impacts ?? [], tags: opts.tags ?? WCAG21_TAGS, rules: opts.rules ?? [] },
  );
}

/** Fails with the list of WCAG 2 A/AA violations axe finds inside the elements `selectors` match. */
export async function expectAxeClean(page: Page, ...selectors: string[]): Promise<void> {
  expect(await axeViolations(page, { include: selectors }), `axe violations in ${selectors.join(', ')}`).toEqual([]);
}
