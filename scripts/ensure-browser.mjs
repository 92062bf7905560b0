// The end-to-end journeys run in the system Chromium (e2e/playwright.config.ts). `npm test`
// installs it on a fresh Debian machine when it may (as root), or stops at once saying how.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const PACKAGES = 'chromium fonts-dejavu-core';
const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The Chromium to use: CHROMIUM_PATH, else /usr/bin/chromium, else `chromium` on PATH; null when none exists. */
export function findChromium(env, exists = fs.existsSync) {
  if (env.CHROMIUM_PATH) return exists(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  if (exists(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'chromium');
    if (exists(candidate)) return candidate;
  }
  return null;
}

/**
 * What `npm test` does about the browser before anything else:
 * - `skip`: SKIP_E2E=1, no browser needed;
 * - `use`: Chromium is there (its path goes to the journeys as CHROMIUM_PATH);
 * - `install`: missing and we are root, so apt-get installs it;
 * - `stop`: missing and not root; the message names the command to run.
 */
export function browserPlan({ env, isRoot, exists = fs.existsSync }) {
  if (env.SKIP_E2E === '1') return { action: 'skip' };
  const chromium = findChromium(env, exists);
  if (chromium) return { action: 'use', chromium };
  if (isRoot) return { action: 'install', command: `apt-get update && apt-get install -y ${PACKAGES}` };
  return {
    action: 'stop',
    message:
      'The end-to-end journeys need Chromium, which is not installed. Run:\n' +
      `  sudo apt-get install -y ${PACKAGES}\n` +
      'then `npm test` again (or SKIP_E2E=1 npm test to leave the journeys out).',
  };
}

/** Carries the plan out; answers the environment the journeys run with. */
export function ensureBrowser(env = process.env) {
  const plan = browserPlan({ env, isRoot: process.getuid?.() === 0 });
  if (plan.action === 'skip') return {};
  if (plan.action === 'use') return { CHROMIUM_PATH: plan.chromium };
  if (plan.action === 'stop') {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`\n=== Installing Chromium (${plan.command}) ===`);
  const res = spawnSync(plan.command, {
    stdio: 'inherit',
    shell: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const chromium = res.status === 0 ? findChromium(env) : null;
  if (!chromium) {
    console.error('Installing Chromium failed.');
    process.exit(res.status || 1);
  }
  return { CHROMIUM_PATH: chromium };
}
