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
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      './packages/web/vite.config.ts',
    ],
  },
});
