// Vite's configuration of the web console (console/README.md). `npm run build` builds with it
// (scripts/build/build-console.mjs); `npx vite --config console/vite.config.mjs` serves the sources with hot reload,
// sending the API's paths to a service started with `npm start` (CONSOLE_API_ORIGIN, default http://127.0.0.1:3000).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const api = process.env.CONSOLE_API_ORIGIN || 'http://127.0.0.1:3000';

export default defineConfig({
  root: here('.'),
  base: '/console/',
  publicDir: here('public'),
  // The client package by its name, from its sources in this repository (the console is its proof in a browser).
  resolve: { alias: { '@payout-service/client': here('../client/index.ts') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline script and no data: URL, as the page's Content-Security-Policy allows neither.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    proxy: Object.fromEntries(['/console/api', '/v1', '/payouts', '/finance', '/api', '/oauth'].map((path) => [path, api])),
  },
});
