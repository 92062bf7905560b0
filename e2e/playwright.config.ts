import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Several engineers may run journeys at once: each picks a port (E2E_PORT); data and build follow it. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, `../.tmp/e2e-${E2E_PORT}/data`);
export const E2E_WEB_DIST = path.resolve(import.meta.dirname, `../.tmp/e2e-${E2E_PORT}/web`);
/**
 * Local fakes of the outside services (packages/server/src/test/fakes/), each on a port that
 * follows E2E_PORT; the spec that needs one starts it, the server only reaches it during that spec.
 */
export const FAKE_PATREON_PORT = E2E_PORT + 20;
export const FAKE_LOVENSE_PORT = E2E_PORT + 21;
export const FAKE_BUTTPLUG_PORT = E2E_PORT + 22;

/** Journeys run against one real server (embedded database, demo library) in Debian's Chromium. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    // The app's service worker would hide requests from page.route; journeys that test it allow it.
    serviceWorkers: 'block',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  outputDir: `../.tmp/e2e-${E2E_PORT}/results`,
  webServer: {
    // E2E_STORAGE=s3: the same server with its media in a local S3-compatible bucket (e2e/s3-app.ts).
    command:
      process.env.E2E_STORAGE === 's3'
        ? 'node --import tsx e2e/s3-app.ts'
        : 'node --import tsx packages/server/src/main.ts',
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `http://localhost:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      NODE_ENV: 'test',
      SEED_DEMO: 'true',
      RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: E2E_WEB_DIST,
      PATREON_CLIENT_ID: 'e2e-client',
      PATREON_CLIENT_SECRET: 'e2e-client-secret',
      PATREON_WEBHOOK_SECRET: 'e2e-webhook-secret',
      PATREON_URL: `http://127.0.0.1:${FAKE_PATREON_PORT}`,
      LOVENSE_DEVELOPER_TOKEN: 'e2e-developer-token',
      LOVENSE_API_URL: `http://127.0.0.1:${FAKE_LOVENSE_PORT}`,
    },
  },
});
