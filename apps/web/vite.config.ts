import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compileHints } from '../../tools/build/compile-hints.mjs';

// The SPA imports the contracts library's TypeScript sources directly (types and small pure helpers),
// so it never depends on the library's compiled dist/.
const contracts = new URL('../../libs/contracts/src/index.ts', import.meta.url).pathname;

export default defineConfig({
  // compileHints: the chunks every page runs at once are compiled off the main thread while they download.
  plugins: [react(), tailwindcss(), compileHints()],
  resolve: {
    alias: { '@lv/contracts': contracts },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The gateway (apps/gateway) answers /api; in production it also serves this build.
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Source maps are written beside the scripts (and served) but not named in them: the
    // `//# sourceMappingURL=` line, with its hash, was 1 KB gzipped of the vault home's first load over its
    // 28 scripts (issue 37), for the developer tools alone. Load a map by hand in the tools when needed.
    sourcemap: 'hidden',
    // .vite/manifest.json: which chunks each page pulls in (tools/build/route-budgets.mjs reads it).
    manifest: true,
    rolldownOptions: {
      output: {
        // Long-lived chunks for the libraries every page needs, so a release of the app does not
        // invalidate their cache. Other libraries go with the pages that use them (pages are loaded
        // per route), so the first load carries only what the shell and its page need.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/ },
            // Not in the shared first load: only the pages that query load it (queries/query-provider.tsx).
            // One chunk rather than the eight small ones rolldown would cut it into, which gzip worse.
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
});
