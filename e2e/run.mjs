// Builds the web app, then runs the journeys against one server on a clean embedded
// database (the demo library is seeded on start). E2E_PORT picks the port (default 3100);
// the data folder and the build go under .tmp/e2e-<port>/ so parallel runs don't collide.
// E2E_BUILT_WEB_FROM=<port> copies the build an earlier run on that port made instead of building again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.E2E_PORT ?? '3100';
const work = path.join(root, `.tmp/e2e-${port}`);
fs.rmSync(path.join(work, 'data'), { recursive: true, force: true });

function run(cmd, args) {
  const res = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, E2E_PORT: port, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const builtOn = process.env.E2E_BUILT_WEB_FROM;
if (builtOn) {
  fs.rmSync(path.join(work, 'web'), { recursive: true, force: true });
  fs.cpSync(path.join(root, `.tmp/e2e-${builtOn}/web`), path.join(work, 'web'), { recursive: true });
} else {
  run('npx', [
    'vite',
    'build',
    'packages/web',
    '--outDir',
    path.join(work, 'web'),
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ]);
}
run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]);
