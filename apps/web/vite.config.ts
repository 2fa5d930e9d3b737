import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
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
      // and the bundler would otherwise merge them into the shell's shared chunk (ADR 017).
      output: { codeSplitting: { groups: [{ name: 'contract', test: (id) => /[\\/](node_modules[\\/]zod|packages[\\/]contract)[\\/]/.test(id) && !/[\\/]contract[\\/]src[\\/](roles|notification-text|first-paint)\.ts$/.test(id), includeDependenciesRecursively: false }] } },
    },
  },
});
