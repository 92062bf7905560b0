// Installs the workspace's packages when they are missing or older than the lock file,
// so `npm start` and `npm test` work on a fresh clone.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale =
  !fs.existsSync(marker) || fs.statSync('package-lock.json').mtimeMs > fs.statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('Installing packages (first run or the lock file changed)...');
  // `npm install` rather than `npm ci`: the registry mirror lacks other platforms' optional packages
  // (e.g. Biome's), so the lock file cannot list them and `npm ci` would refuse it.
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
