// The PostgreSQL pass runs the several-machines recipe (docs/deploy/nginx.conf) in a real nginx
// (packages/server/src/test/nginx.ts). `npm test` installs it on a fresh Debian machine when it may
// (as root), or stops at once saying how, as it does for Chromium (ensure-browser.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DEFAULT_NGINX = '/usr/sbin/nginx';
// Debian 12 has the small nginx-light; later releases have only nginx.
const INSTALL = 'apt-get install -y nginx-light || apt-get install -y nginx';
// The package starts its default site on port 80 where it may; the test runs its own nginx.
const STOP_SERVICE = 'service nginx stop';

/** The nginx to use: NGINX_PATH, else /usr/sbin/nginx, else `nginx` on PATH; null when none exists. */
export function findNginx(env, exists = fs.existsSync) {
  if (env.NGINX_PATH) return exists(env.NGINX_PATH) ? env.NGINX_PATH : null;
  if (exists(DEFAULT_NGINX)) return DEFAULT_NGINX;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'nginx');
    if (exists(candidate)) return candidate;
  }
  return null;
}

/**
 * What `npm test` does about nginx before anything else:
 * - `skip`: no TEST_DATABASE_URL, so no PostgreSQL pass, the only one that runs nginx;
 * - `use`: nginx is there (its path goes to the PostgreSQL pass as NGINX_PATH);
 * - `install`: missing and we are root, so apt-get installs it (and stops the service it may start);
 * - `stop`: missing and not root; the message names the command to run.
 */
export function nginxPlan({ env, isRoot, exists = fs.existsSync }) {
  if (!env.TEST_DATABASE_URL) return { action: 'skip' };
  const nginx = findNginx(env, exists);
  if (nginx) return { action: 'use', nginx };
  if (isRoot) {
    return { action: 'install', command: `apt-get update && (${INSTALL}) && (${STOP_SERVICE} || true)` };
  }
  return {
    action: 'stop',
    message:
      'The PostgreSQL pass runs the nginx recipe (docs/deploy/nginx.conf), and nginx is not installed. Run:\n' +
      '  sudo apt-get install -y nginx-light && sudo service nginx stop\n' +
      '(`nginx` where there is no nginx-light), then `npm test` again.',
  };
}

/** Carries the plan out; answers the environment the PostgreSQL pass runs with. */
export function ensureNginx(env = process.env) {
  const plan = nginxPlan({ env, isRoot: process.getuid?.() === 0 });
  if (plan.action === 'skip') return {};
  if (plan.action === 'use') return { NGINX_PATH: plan.nginx };
  if (plan.action === 'stop') {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`\n=== Installing nginx (${plan.command}) ===`);
  const res = spawnSync(plan.command, {
    stdio: 'inherit',
    shell: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const nginx = res.status === 0 ? findNginx(env) : null;
  if (!nginx) {
    console.error('Installing nginx failed.');
    process.exit(res.status || 1);
  }
  return { NGINX_PATH: nginx };
}
