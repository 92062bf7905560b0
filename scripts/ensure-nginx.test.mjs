import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findNginx, nginxPlan } from './ensure-nginx.mjs';

const only =
  (...paths) =>
  (p) =>
    paths.includes(p);
const postgres = { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };

describe('nginxPlan', () => {
  it('stops at once without root, naming the command to run', () => {
    const plan = nginxPlan({ env: { ...postgres, PATH: '/usr/bin:/bin' }, isRoot: false, exists: only() });
    assert.equal(plan.action, 'stop');
    assert.match(plan.message, /^ {2}sudo apt-get install -y nginx-light && sudo service nginx stop$/m);
  });

  it('installs non-interactively as root, falling back to nginx, and stops the service it may start', () => {
    assert.deepEqual(nginxPlan({ env: postgres, isRoot: true, exists: only() }), {
      action: 'install',
      command:
        'apt-get update && (apt-get install -y nginx-light || apt-get install -y nginx) && (service nginx stop || true)',
    });
  });

  it('uses the nginx that is there, and needs none without the PostgreSQL pass', () => {
    assert.deepEqual(nginxPlan({ env: postgres, isRoot: false, exists: only('/usr/sbin/nginx') }), {
      action: 'use',
      nginx: '/usr/sbin/nginx',
    });
    assert.deepEqual(nginxPlan({ env: {}, isRoot: true, exists: only() }), { action: 'skip' });
  });
});

describe('findNginx', () => {
  it('prefers NGINX_PATH, then /usr/sbin/nginx, then nginx on PATH', () => {
    const all = only('/opt/nginx/sbin/nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx');
    assert.equal(findNginx({ NGINX_PATH: '/opt/nginx/sbin/nginx' }, all), '/opt/nginx/sbin/nginx');
    assert.equal(findNginx({ PATH: '/usr/local/sbin' }, all), '/usr/sbin/nginx');
    assert.equal(
      findNginx({ PATH: '/usr/bin:/usr/local/sbin' }, only('/usr/local/sbin/nginx')),
      '/usr/local/sbin/nginx',
    );
    assert.equal(findNginx({ NGINX_PATH: '/missing' }, all), null);
  });
});
