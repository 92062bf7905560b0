import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress.ts';
import { serviceWorker } from './build/service-worker.ts';

export default defineConfig({
  plugins: [react(), serviceWorker(), precompress()],
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
    rollupOptions: {
      output: {
        // zod with its configuration in one chunk, so jitless is set before any schema is built
        // (src/lib/zod-config.ts).
        manualChunks: (id) => (/node_modules\/zod\/|lib\/zod-config\.ts$/.test(id) ? 'zod' : undefined),
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
