// Ads and analytics: off unless configured (the main server configures none), and when configured
// only the zone that fits the viewport, never for an ad-free member. This spec starts its own
// server on E2E_PORT+31 with the ad network and analytics pointing at a fake on E2E_PORT+32.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { type OwnServer, startOwnServer } from './own-server.ts';
import { E2E_PORT } from './playwright.config.ts';

const ADS_PORT = E2E_PORT + 31;
const FAKE_PORT = E2E_PORT + 32;
const FAKE_ORIGIN = `http://127.0.0.1:${FAKE_PORT}`;
const ADS_URL = `http://localhost:${ADS_PORT}`;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, `.tmp/e2e-${E2E_PORT}/ads-data`);

/** The fake ad network draws a visible box into every zone; the fake analytics reports a hit. */
const AD_SCRIPT = `
function fill(zone) {
  if (!zone || zone.dataset.filled) return;
  zone.dataset.filled = 'yes';
  var box = document.createElement('div');
  box.className = 'fake-ad';
  box.textContent = 'Fake ad ' + zone.dataset.adZone + ' ' + zone.dataset.adSize;
  box.style.cssText = 'width:100%;height:100%;background:#fc688f;color:#fff';
  zone.append(box);
}
document.querySelectorAll('[data-ad-zone]').forEach(fill);
window.addEventListener('mesmer:ad-zone', function (e) { fill(e.detail); });
`;
const ANALYTICS_SCRIPT = `fetch('${FAKE_ORIGIN}/hit?site=' + document.currentScript.dataset.siteId, { method: 'POST', mode: 'no-cors' });`;

const GRANT_AD_FREE = `
import { PGlite } from '@electric-sql/pglite';
const db = new PGlite(process.argv[1]);
await db.query("insert into user_memberships (user_id, tier_id, active, last_verified) select id, '21902510', true, now() from users where username = 'sonicmist'");
await db.close();
`;

let fake: http.Server;
let server: OwnServer | undefined;
const hits: string[] = [];

const startServer = async () => {
  server = await startOwnServer({
    port: ADS_PORT,
    dataDir,
    env: {
      AD_NETWORK_SCRIPT_URL: `${FAKE_ORIGIN}/ads.js`,
      AD_ZONE_DESKTOP: 'zone-728',
      AD_ZONE_MOBILE: 'zone-300',
      ANALYTICS_SCRIPT_URL: `${FAKE_ORIGIN}/analytics.js`,
      ANALYTICS_SITE_ID: 'e2e-site',
    },
  });
};

async function stopServer() {
  await server?.stop();
  server = undefined;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fake = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = req.url === '/ads.js' ? AD_SCRIPT : req.url === '/analytics.js' ? ANALYTICS_SCRIPT : '';
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*' });
    res.end(body);
  });
  await new Promise<void>((r) => fake.listen(FAKE_PORT, '127.0.0.1', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  // First start seeds the demo; then, with the server stopped (the embedded database is one
  // process's), sonicmist gets an active membership in the ad-free tier 21902510 (a demo tier).
  await startServer();
  await stopServer();
  // Run inside the server's workspace, whose dependency the embedded database is.
  execFileSync('node', ['--input-type=module', '-e', GRANT_AD_FREE, path.join(dataDir, 'db')], {
    cwd: path.join(root, 'packages/server'),
    stdio: 'inherit',
  });
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  await new Promise((r) => fake.close(r));
});

async function signIn(page: Page, username: string) {
  const res = await page.request.post(`${ADS_URL}/api/token`, {
    data: { user: username, password: 'demo-password', timezone: 'UTC' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('desktop: a visitor sees the fake ad in the 728×90 zone only, and analytics loads', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const res = await page.goto(`${ADS_URL}/about`);
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`script-src 'self' ${FAKE_ORIGIN}`);
  const ad = page.getByRole('complementary', { name: 'Advertisement' });
  await expect(ad.getByText('Fake ad zone-728 728x90')).toBeVisible();
  expect(await ad.locator('[data-ad-zone]').count()).toBe(1);
  const box = await ad.locator('[data-ad-zone]').boundingBox();
  expect([box?.width, box?.height]).toEqual([728, 90]);
  await expect.poll(() => hits.includes('/hit?site=e2e-site')).toBe(true);
});

test('phone: only the 300×100 zone, also for a member of no ad-free tier', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, 'lunadrift');
  await page.goto(`${ADS_URL}/`);
  const ad = page.getByRole('complementary', { name: 'Advertisement' });
  await expect(ad.getByText('Fake ad zone-300 300x100')).toBeVisible();
  expect(await page.locator('[data-ad-zone]').count()).toBe(1);
  // Widening the window swaps in the leaderboard zone.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(ad.getByText('Fake ad zone-728 728x90')).toBeVisible();
  expect(await page.locator('[data-ad-zone]').count()).toBe(1);
});

test('an active member of an ad-free tier sees no ad and the ad script is never fetched', async ({
  page,
}) => {
  const adRequests: string[] = [];
  page.on('request', (req) => {
    if (req.url().startsWith(`${FAKE_ORIGIN}/ads.js`)) adRequests.push(req.url());
  });
  await signIn(page, 'sonicmist');
  await page.goto(`${ADS_URL}/`);
  await page.waitForLoadState('networkidle');
  await page.goto(`${ADS_URL}/files`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('[data-ad-zone]')).toHaveCount(0);
  expect(adRequests).toEqual([]);
});

test('the cookie policy names the configured ad network and analytics', async ({ page }) => {
  await page.goto(`${ADS_URL}/policy/cookies`);
  await expect(page.getByText('Advertising', { exact: true })).toBeVisible();
  await expect(page.getByText('Analytics', { exact: true })).toBeVisible();
  await expect(page.getByText(FAKE_ORIGIN).first()).toBeVisible();
});

test('unconfigured (the main server): no request leaves this host, no other origin in the CSP', async ({
  page,
}) => {
  const outside: string[] = [];
  page.on('request', (req) => {
    const { hostname, protocol } = new URL(req.url());
    if (!['localhost', '127.0.0.1'].includes(hostname) && protocol !== 'data:' && protocol !== 'blob:') {
      outside.push(req.url());
    }
  });
  const res = await page.goto('/');
  expect(res?.headers()['content-security-policy']).not.toMatch(/https?:\/\//);
  await page.waitForLoadState('networkidle');
  for (const link of ['/files', '/playlists', '/about', '/policy/cookies']) {
    await page.goto(link);
    await page.waitForLoadState('networkidle');
  }
  await expect(page.getByText(/sets no advertising or analytics cookies/)).toBeVisible();
  await expect(page.locator('[data-ad-zone]')).toHaveCount(0);
  expect(outside).toEqual([]);
});

test('/discord/install sends people to the bot page, linked from About', async ({ page }) => {
  const res = await page.request.get('/discord/install', { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toMatch(/^https:\/\/discord\.com\//);
  await page.goto('/about');
  await expect(page.getByRole('link', { name: 'Add the Mesmer bot to Discord' })).toHaveAttribute(
    'href',
    '/discord/install',
  );
});
