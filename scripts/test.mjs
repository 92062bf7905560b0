// `npm test`: Chromium for the journeys and, with TEST_DATABASE_URL, nginx for the PostgreSQL pass
// first (each installed as root, else a stop naming the command), then lint, the layer rules and the
// dead-code check (decision 017), migrations check, the compiled server on each Node.js line the README names,
// unit/component/API tests on PGlite, the API tests again on PostgreSQL when TEST_DATABASE_URL is
// set (with the nginx recipe's test), then the end-to-end journeys in Chromium.
import { spawnSync } from 'node:child_process';
import { ensureBrowser } from './ensure-browser.mjs';
import { ensureNginx } from './ensure-nginx.mjs';

function run(title, command, env = {}) {
  console.log(`\n=== ${title} ===`);
  const res = spawnSync(command, { stdio: 'inherit', shell: true, env: { ...process.env, ...env } });
  if (res.status !== 0) {
    console.error(`\n${title} failed.`);
    process.exit(res.status ?? 1);
  }
}

const browserEnv = ensureBrowser();
const nginxEnv = ensureNginx();

run('Lint', 'npx biome check .');
run('Layers (dependency-cruiser, decision 017)', 'npm run --silent check:layers');
run('Dead code (knip, decision 017)', 'npm run --silent check:dead-code');
run('Type check', 'npm run typecheck');
run('Migrations match the schema', 'node scripts/check-migrations.mjs');
run('Script tests', 'node --test scripts/ensure-browser.test.mjs scripts/ensure-nginx.test.mjs');
run('The compiled server on Node.js 20, 22 and 24', 'node scripts/node-versions.mjs');
run('Unit, component and API tests (PGlite)', 'npx vitest run', { TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  run('API tests (PostgreSQL)', 'npx vitest run --project server', { TEST_DB: 'postgres', ...nginxEnv });
} else {
  console.log('\n(TEST_DATABASE_URL not set: the PostgreSQL pass of the API tests is skipped.)');
}
if (process.env.SKIP_E2E !== '1') {
  run('End-to-end journeys (Chromium)', 'npm run test:e2e', browserEnv);
  // The journeys that store media, again with the media in S3 (a local s3rver the run starts).
  run(
    'End-to-end journeys on S3 storage (Chromium)',
    'npm run test:e2e -- uploads.spec.ts file-edit.spec.ts',
    {
      ...browserEnv,
      E2E_STORAGE: 's3',
      E2E_PORT: String(Number(process.env.E2E_PORT ?? 3100) + 1),
    },
  );
}
