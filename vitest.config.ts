import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts'],
          // Absolute, so it reads the same from the project's root and from this file's (knip).
          globalSetup: [fileURLToPath(new URL('packages/server/src/test/global-setup.ts', import.meta.url))],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      './packages/web/vite.config.ts',
    ],
  },
});
