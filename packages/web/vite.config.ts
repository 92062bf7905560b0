import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { pagePreloadsFile } from './build/page-preloads.ts';
import { precompress } from './build/precompress.ts';
import { serviceWorker } from './build/service-worker.ts';
import { pageRoutes } from './src/app/page-routes.ts';

function reactRouterProduction(): string {
  const development = createRequire(import.meta.url).resolve('react-router');
  return path.join(path.dirname(development), '../production/index.mjs');
}

/** A package's ES build, beside its CommonJS `main`. */
function esmBuild(name: string, fromMain: string): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve(name)), fromMain);
}

// The app is written against React's API and ships on preact/compat, a few kilobytes instead of
// react-dom's 60 (decision 031). The component tests run on it too: they test what ships.
const preactCompat = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/compat/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react$/, replacement: path.resolve(import.meta.dirname, 'src/lib/react-on-preact.ts') },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  // React Router's package exports only its development build (warnings and checks kept).
  { find: /^react-router$/, replacement: reactRouterProduction() },
];

// Libraries that import React, run through the aliases above instead of Node's resolution of `react`.
const usesReact = [
  /@testing-library\/react/,
  /@tanstack\/react-query/,
  /react-router/,
  /react-markdown/,
  /lucide-react/,
  /@hello-pangea\/dnd/,
  /react-redux/,
  /zustand/,
  /use-sync-external-store/,
];

export default defineConfig({
  resolve: { alias: preactCompat },
  plugins: [react(), pagePreloadsFile(pageRoutes), serviceWorker(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/media': 'http://localhost:3000',
      '/avatars': 'http://localhost:3000',
      '/discord': 'http://localhost:3000',
      '/socket.io': { target: 'ws://localhost:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports in one file, not a chain of shared chunks fetched a few at a time
            // (decision 040). The pages import route addresses, not the contract's schemas (decision 043).
            { name: 'app', tags: ['$initial'], includeDependenciesRecursively: false },
            // zod in one chunk of its own, loaded by the pages that validate (decision 038).
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 1 },
          ],
          // A page's shared pieces under 16 KiB are copied into it, so a page is one or two files (decision 040).
          experimentalInlineCommonChunks: { maxSize: 16384 },
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // Their ES builds: under Node the CommonJS ones would load React itself, around the aliases.
    alias: [
      {
        find: /^@testing-library\/react$/,
        replacement: esmBuild('@testing-library/react', '@testing-library/react.esm.js'),
      },
      { find: /^lucide-react$/, replacement: esmBuild('lucide-react', '../esm/lucide-react.mjs') },
      { find: /^@hello-pangea\/dnd$/, replacement: esmBuild('@hello-pangea/dnd', 'dnd.esm.js') },
    ],
    server: { deps: { inline: usesReact } },
  },
});
