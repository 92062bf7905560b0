// A default install: no Patreon client and no Lovense developer token. The main journey server
// configures both fakes, so this spec starts its own server on E2E_PORT+33 with neither; the web app
// reads from the site settings what is configured and calls nothing that would answer 503.
import fs from 'node:fs';
import path from 'node:path';
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import type { Page } from '@playwright/test';
import { expect, test, uniqueName } from './fixtures.ts';
import { type OwnServer, startOwnServer } from './own-server.ts';
import { E2E_PORT } from './playwright.config.ts';

const PLAIN_PORT = E2E_PORT + 33;
const PLAIN_URL = `http://localhost:${PLAIN_PORT}`;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, `.tmp/e2e-${E2E_PORT}/plain-data`);

let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  server = await startOwnServer({ port: PLAIN_PORT, dataDir, unset: /^(PATREON|LOVENSE)_/ });
});

test.afterAll(async () => {
  await server?.stop();
});

/** Every request the page makes to the server, with its status, and every console error. */
function watch(page: Page) {
  const calls: { url: string; status: number }[] = [];
  const consoleErrors: string[] = [];
  page.on('response', (res) => calls.push({ url: new URL(res.url()).pathname, status: res.status() }));
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  return { calls, consoleErrors };
}

async function signUp(page: Page) {
  const username = uniqueName('plain');
  const res = await page.request.post(`${PLAIN_URL}/api/register`, {
    data: {
      user: username,
      email: `${username.toLowerCase()}@example.com`,
      password: 'listen-deeply-42',
      timezone: 'UTC',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test('the account page of a default install calls neither Patreon nor Lovense, and nothing fails', async ({
  page,
}) => {
  const { calls, consoleErrors } = watch(page);
  await signUp(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${PLAIN_URL}/account`);
    await expect(page.getByText('Patreon linking is not configured on this site.')).toBeVisible();
    await expect(page.getByText(/Lovense Remote is not set up on this site/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Intiface Central address' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Lovense Remote' })).toHaveCount(0);
    await page.waitForLoadState('networkidle');
  }
  // The app shell (which hands a Lovense toy to the player) asks nothing either, on any page.
  await page.goto(`${PLAIN_URL}/files`);
  await expect(page.getByRole('list', { name: 'Files', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Home asks nobody to re-link a Patreon account on a site without Patreon.
  await page.goto(`${PLAIN_URL}/`);
  await expect(page.getByRole('button', { name: 'Create playlist' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('complementary', { name: 'Membership notice' })).toHaveCount(0);

  expect(calls.filter((c) => /^\/api\/(patreon|lovense)\b/.test(c.url))).toEqual([]);
  expect(calls.filter((c) => c.status >= 400)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("/patreon/oauth without a code says 'Linking failed.' and goes to /", async ({ page }) => {
  const { calls } = watch(page);
  await page.goto(`${PLAIN_URL}/patreon/oauth`);
  await expect(page).toHaveURL(`${PLAIN_URL}/`);
  await expect(page.getByRole('alert').filter({ hasText: 'Linking failed.' })).toBeVisible();
  expect(calls.filter((c) => c.url.startsWith('/api/patreon'))).toEqual([]);
});

test("/patreon/oauth shows 'Linking account...' while the code is sent", async ({ page }) => {
  await signUp(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/patreon/token', async (route) => {
    await held;
    await route.fulfill({
      status: 403,
      json: { error: 'This Patreon link was not started here or has expired.' },
    });
  });
  await page.goto(`${PLAIN_URL}/patreon/oauth?code=c0de&state=s7a7e`);
  await expect(page.getByText('Linking account...')).toBeVisible();
  release();
  await expect(page).toHaveURL(`${PLAIN_URL}/account#patreon`);
  await expect(page.getByRole('alert').filter({ hasText: 'Linking failed.' })).toBeVisible();
});

test('the app serves images/{fileType}.svg and the file type filters show them', async ({ page }) => {
  for (const { id } of FILE_TYPES) {
    const res = await page.request.get(`${PLAIN_URL}/images/${id}.svg`);
    expect(res.status(), `images/${id}.svg`).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toContain('stroke="currentColor"');
  }
  const icons: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/images/')) icons.push(`${new URL(res.url()).pathname} ${res.status()}`);
  });
  await page.goto(`${PLAIN_URL}/files`);
  await page.getByRole('button', { name: 'Filters' }).click();
  const induction = page.getByRole('button', { name: 'Induction', exact: true });
  await expect(induction).toBeVisible();
  const mask = await induction
    .locator('span[aria-hidden]')
    .evaluate((el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
  expect(mask).toContain('/images/1.svg');
  await expect.poll(() => icons).toContain('/images/1.svg 200');
});
