// `npm test`: Chromium for the journeys and, with TEST_DATABASE_URL, nginx for the PostgreSQL pass
// first (each installed as root, else a stop naming the command), then the checks side by side (lint,
// the layer rules and the dead-code check of decision 017, type check, migrations check, the scripts'
// tests, the compiled server on each Node.js line the README names), unit/component/API tests on PGlite
// and, when TEST_DATABASE_URL is set, the API tests on PostgreSQL too (with the nginx recipe's test) in
// the same vitest run, then the end-to-end journeys in Chromium. Each step's time is printed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { ensureBrowser } from './ensure-browser.mjs';
import { ensureNginx } from './ensure-nginx.mjs';

const started = Date.now();
const timings = [];
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

function fail(title, status) {
  console.error(`\n${title} failed.`);
  printTimings();
  process.exit(status ?? 1);
}

function printTimings() {
  console.log('\n=== Times ===');
  for (const [title, took] of timings) console.log(`${took.padStart(7)}  ${title}`);
  console.log(`${seconds(started).padStart(7)}  npm test`);
}

function run(title, command, env = {}) {
  console.log(`\n=== ${title} ===`);
  const since = Date.now();
  const res = spawnSync(command, { stdio: 'inherit', shell: true, env: { ...process.env, ...env } });
  timings.push([title, seconds(since)]);
  if (res.status !== 0) fail(title, res.status);
}

/** Runs the steps at once (they only read the tree), each one's output printed whole when it ends. */
async function runSideBySide(steps) {
  const results = await Promise.all(
    steps.map(
      ([title, command]) =>
        new Promise((resolve) => {
          const since = Date.now();
          const child = spawn(command, { shell: true, env: process.env });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (status) => {
            console.log(`\n=== ${title} ===`);
            process.stdout.write(Buffer.concat(output));
            timings.push([title, seconds(since)]);
            resolve({ title, status });
          });
        }),
    ),
  );
  const failed = results.find((r) => r.status !== 0);
  if (failed) fail(failed.title, failed.status);
}

const browserEnv = ensureBrowser();
const nginxEnv = ensureNginx();

await runSideBySide([
  ['Lint', 'npx biome check .'],
  ['Layers (dependency-cruiser, decision 017)', 'npm run --silent check:layers'],
  ['Dead code (knip, decision 017)', 'npm run --silent check:dead-code'],
  ['Type check', 'npm run --silent typecheck'],
  ['Migrations match the schema', 'node scripts/check-migrations.mjs'],
  ['Script tests', 'node --test scripts/ensure-browser.test.mjs scripts/ensure-nginx.test.mjs'],
  ['The compiled server on Node.js 20, 22 and 24', 'node scripts/node-versions.mjs'],
]);
if (process.env.TEST_DATABASE_URL) {
  run('Unit, component and API tests (PGlite), and the API tests on PostgreSQL', 'npx vitest run', nginxEnv);
} else {
  run('Unit, component and API tests (PGlite)', 'npx vitest run');
  console.log('\n(TEST_DATABASE_URL not set: the PostgreSQL pass of the API tests is skipped.)');
}
if (process.env.SKIP_E2E !== '1') {
  run('End-to-end journeys (Chromium)', 'npm run test:e2e', browserEnv);
  // The journeys that store media, again with the media in S3 (a local s3rver the run starts), on the
  // web build the first run made.
  const port = Number(process.env.E2E_PORT ?? 3100);
  run(
    'End-to-end journeys on S3 storage (Chromium)',
    'npm run test:e2e -- uploads.spec.ts file-edit.spec.ts',
    {
      ...browserEnv,
      E2E_STORAGE: 's3',
      E2E_PORT: String(port + 1),
      E2E_BUILT_WEB_FROM: String(port),
    },
  );
}
printTimings();
