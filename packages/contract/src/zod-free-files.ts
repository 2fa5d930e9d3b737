/**
 * The contract's files without zod: those behind its subpath exports (`@glimpse/contract/chapters`…),
 * as paths under src/. The web build groups them into a chunk of their own (apps/web/vite.config.ts)
 * and zod-free.test.ts checks each one; both read the list from package.json through this (ADR 017).
 */
export const zodFreeFiles = (exports: Record<string, string>): string[] =>
  Object.entries(exports)
    .filter(([subpath]) => subpath !== '.')
    .map(([, file]) => file.replace(/^\.\/src\//, ''));
