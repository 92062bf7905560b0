import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserPlan, findChromium } from './ensure-browser.mjs';

const only =
  (...paths) =>
  (p) =>
    paths.includes(p);

describe('browserPlan', () => {
  it('stops at once without root, naming the command to run', () => {
    const plan = browserPlan({ env: { PATH: '/usr/local/bin:/bin' }, isRoot: false, exists: only() });
    assert.equal(plan.action, 'stop');
    assert.match(plan.message, /^ {2}sudo apt-get install -y chromium fonts-dejavu-core$/m);
  });

  it('installs non-interactively as root', () => {
    assert.deepEqual(browserPlan({ env: {}, isRoot: true, exists: only() }), {
      action: 'install',
      command: 'apt-get update && apt-get install -y chromium fonts-dejavu-core',
    });
  });

  it('uses the Chromium that is there, and needs none with SKIP_E2E=1', () => {
    assert.deepEqual(browserPlan({ env: {}, isRoot: false, exists: only('/usr/bin/chromium') }), {
      action: 'use',
      chromium: '/usr/bin/chromium',
    });
    assert.deepEqual(browserPlan({ env: { SKIP_E2E: '1' }, isRoot: false, exists: only() }), {
      action: 'skip',
    });
  });
});

describe('findChromium', () => {
  it('prefers CHROMIUM_PATH, then /usr/bin/chromium, then chromium on PATH', () => {
    const all = only('/opt/c/chrome', '/usr/bin/chromium', '/snap/bin/chromium');
    assert.equal(findChromium({ CHROMIUM_PATH: '/opt/c/chrome' }, all), '/opt/c/chrome');
    assert.equal(findChromium({ PATH: '/snap/bin' }, all), '/usr/bin/chromium');
    assert.equal(
      findChromium({ PATH: '/usr/local/bin:/snap/bin' }, only('/snap/bin/chromium')),
      '/snap/bin/chromium',
    );
    assert.equal(findChromium({ CHROMIUM_PATH: '/missing' }, all), null);
  });
});
