import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const webRoot = fileURLToPath(new URL('packages/web', import.meta.url));
const webConfig = path.join(webRoot, 'vite.config.ts');

/**
 * The web tests share one module graph and one DOM per worker: loading React, the router and jsdom
 * again for every file cost more than the tests themselves (a 6× slower project). A file that mocks a
 * module (`vi.mock`) or says it needs its own graph (`isolated module graph`, with the reason) gets
 * a fresh one, as module mocks and app-wide listeners need.
 */
function webTestFiles(): string[] {
  return ['src', 'build'].flatMap((folder) =>
    fs
      .readdirSync(path.join(webRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.test\.tsx?$/.test(file))
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`),
  );
}
const needsItsOwnGraph = (file: string) => {
  const text = fs.readFileSync(path.join(webRoot, file), 'utf8');
  return text.includes('vi.mock(') || text.includes('isolated module graph');
};
// Both projects extend the web config, whose `include` they add to: each excludes the other's files.
const isolatedWebTests: string[] = [];
const sharedGraphWebTests: string[] = [];
for (const file of webTestFiles())
  (needsItsOwnGraph(file) ? isolatedWebTests : sharedGraphWebTests).push(file);

/** The API tests, on the embedded database or (`TEST_DB: 'postgres'`) on TEST_DATABASE_URL's server. */
function serverProject(name: string, env: Record<string, string> = {}) {
  return {
    test: {
      name,
      root: 'packages/server',
      include: ['src/**/*.test.ts'],
      env,
      // Each file builds its own app on its own database (test/harness.ts): sharing the module graph
      // within a worker only saves loading the server again per file (both passes in CI: about 1,080 s
      // one after the other with isolation, 603 s side by side without).
      isolate: false,
      // Absolute, so it reads the same from the project's root and from this file's (knip).
      globalSetup: [fileURLToPath(new URL('packages/server/src/test/global-setup.ts', import.meta.url))],
      testTimeout: 30000,
      hookTimeout: 60000,
    },
  };
}

/**
 * With TEST_DATABASE_URL, the API tests run a second time on PostgreSQL in the same run: files of both
 * passes share the workers, so one pass's waits (spawned servers and CLIs, PostgreSQL's own work) fill
 * with the other's. `TEST_DB=postgres npx vitest run --project server` still runs one pass on PostgreSQL.
 */
const postgresPass = Boolean(process.env.TEST_DATABASE_URL) && process.env.TEST_DB !== 'postgres';

export default defineConfig({
  test: {
    // Two files at once even on two cores: many API tests wait on spawned processes, PostgreSQL or timers.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      serverProject('server'),
      ...(postgresPass ? [serverProject('server-postgres', { TEST_DB: 'postgres' })] : []),
      { extends: webConfig, test: { name: 'web', root: webRoot, isolate: false, exclude: isolatedWebTests } },
      { extends: webConfig, test: { name: 'web-isolated', root: webRoot, exclude: sharedGraphWebTests } },
    ],
  },
});
