import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
// Relative: the config is bundled before the workspace's TypeScript packages resolve.
import { THEME_BOOT_SCRIPT } from '../../packages/contract/src/theme-boot.ts';
import { zodFreeFiles } from '../../packages/contract/src/zod-free-files.ts';

/** The contract's zod-free files, which first loads may import (ADR 017). */
const zodFree = zodFreeFiles(JSON.parse(readFileSync(new URL('../../packages/contract/package.json', import.meta.url), 'utf8')).exports);
const isZodFreeContract = (id: string) => zodFree.some((file) => id.replaceAll('\\', '/').endsWith(`/contract/src/${file}`));

/**
 * React Router 7 exports only its development build (remix-run/react-router#14102): its dev-only
 * checks and warnings cost the first screen about 100 ms of a phone's main thread. A build takes
 * the production files the package ships beside it.
 */
const reactRouterDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const productionReactRouter = [
  { find: /^react-router$/, replacement: path.join(reactRouterDir, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDir, 'dist/production/dom-export.mjs') },
];

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    tailwindcss(),
    // The theme before first paint, inline: no request holds the first paint up (ADR 020; the CSP allows it by hash).
    { name: 'theme-boot', transformIndexHtml: (html) => html.replace('<!-- theme-boot -->', `<script>${THEME_BOOT_SCRIPT}</script>`) },
  ],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }, ...(command === 'build' ? productionReactRouter : [])],
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Two pages: the app, and the light player other sites frame (/embed/{id}, served by the API server).
    // The server reads the manifest to preload each page's chunks (ADR 017).
    manifest: true,
    rolldownOptions: {
      input: { main: fileURLToPath(new URL('./index.html', import.meta.url)), embed: fileURLToPath(new URL('./embed.html', import.meta.url)) },
      // zod and the contract's schemas in their own chunk: only forms and the player need them,
      // and the bundler would otherwise merge them into the shell's shared chunk (ADR 017). The
      // contract's zod-free files get a chunk of their own too: left to the bundler, one shared by
      // both pages landed in the app's entry chunk, and importing it from the embed started the app.
      output: {
        codeSplitting: {
          groups: [
            { name: 'contract-lite', test: isZodFreeContract, includeDependenciesRecursively: false },
            { name: 'contract', test: (id) => /[\\/](node_modules[\\/]zod|packages[\\/]contract)[\\/]/.test(id), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
}));
