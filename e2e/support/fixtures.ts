import { test as base, expect } from '@playwright/test';

export interface BrowserProblemsOptions {
  /** Console errors a test expects; anything else fails the test. */
  allowedConsoleErrors: RegExp[];
}

/**
 * `test` whose page fails the test on any uncaught page error, console error (CSP
 * violations, React warnings), 5xx answer or failed request: the browser-side twin of
 * the unit tests' console.error rule. 4xx answers are the API speaking (an anonymous
 * GET users/me is a 401), so the browser's own "Failed to load resource" lines are not counted.
 */
export const test = base.extend<BrowserProblemsOptions>({
  allowedConsoleErrors: [[], { option: true }],
  page: async ({ page, allowedConsoleErrors }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error' || msg.text().startsWith('Failed to load resource:')) return;
      const text = `${msg.text()} (${msg.location().url})`;
      if (!allowedConsoleErrors.some((re) => re.test(text))) problems.push(`console error: ${text}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 500) problems.push(`${res.status()} from ${res.request().method()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => {
      // Navigations and unmounting players cancel requests on purpose.
      if (req.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
    });
    await use(page);
    expect(problems, 'problems in the browser').toEqual([]);
  },
});

export { expect };
