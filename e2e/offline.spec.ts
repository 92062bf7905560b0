import type { Page } from '@playwright/test';
import { expect, signInAsOwner, test } from './fixtures.ts';

// Installable and offline: the manifest is served, the service worker keeps the
// app shell, and with the network cut the app still opens and moves between pages.
test.use({ serviceWorkers: 'allow' });

test('the app shell opens without a network once visited', async ({ page, context }) => {
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect((await manifest.json()).icons.map((i: { sizes: string }) => i.sizes)).toEqual([
    'any',
    '192x192',
    '512x512',
  ]);

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Mesmer home' })).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.goto('/playlists');
  await expect(page.getByRole('link', { name: 'Mesmer home' })).toBeVisible();
  await expect(page).toHaveTitle(/Playlists/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await context.setOffline(false);
});

/** The demo playlist "First Steps" (four short demo tracks), opened once the service worker controls the page. */
async function openFirstSteps(page: Page): Promise<void> {
  const res = await page.request.get('/api/playlists', {
    params: { searchQuery: 'First Steps', simple: 'true' },
  });
  const found = (await res.json()).playlists.find((p: { name: string }) => p.name === 'First Steps');
  expect(found, 'demo playlist First Steps').toBeTruthy();
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.goto(`/playlist/${found.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'First Steps' })).toBeVisible();
}

/** What the offline cache holds (paths) and what the index lists, read in the page. */
function offlineStorage(page: Page) {
  return page.evaluate(async () => {
    const cache = await caches.open('mesmer-offline');
    const keys = (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
    const index = JSON.parse(localStorage.getItem('mesmer-offline-index') ?? '{"items":[]}');
    return { keys, kept: index.items.map((i: { name: string }) => i.name) };
  });
}

const audioTime = (page: Page) =>
  page.evaluate(() => (document.getElementById('mesmer-audio') as HTMLAudioElement | null)?.currentTime ?? 0);

test('a playlist kept offline plays with the network cut, and Remove frees it', async ({ page, context }) => {
  await signInAsOwner(page.request);
  await openFirstSteps(page);

  await page.getByRole('button', { name: 'Keep offline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Keep “First Steps” offline?' });
  await expect(dialog).toContainText(/4 files · [\d.]+ (KB|MB) will be stored in this browser/);
  await dialog.getByRole('button', { name: 'Keep offline' }).click();
  await expect(page.getByText(/Kept offline · [\d.]+ (KB|MB)/)).toBeVisible();
  const stored = await offlineStorage(page);
  expect(stored.kept).toEqual(['First Steps']);
  expect(stored.keys.filter((k) => k.startsWith('/media/audio/'))).toHaveLength(4);
  expect(stored.keys).toContain('/api/playlists');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'First Steps' })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  await expect(
    page.getByRole('region', { name: 'Audio player' }).getByRole('link', { name: 'Ocean Breath' }),
  ).toBeVisible();
  // The audio really plays from the kept copy: the element's clock moves with no network.
  await expect.poll(() => audioTime(page), { timeout: 15_000 }).toBeGreaterThan(0.5);

  await page.getByRole('button', { name: 'Remove “First Steps” from this device' }).click();
  await expect(page.getByRole('button', { name: 'Keep offline' })).toBeVisible();
  expect(await offlineStorage(page)).toEqual({ keys: [], kept: [] });
  await context.setOffline(false);
});

test('a download that fails leaves nothing kept', async ({ page }) => {
  await signInAsOwner(page.request);
  await openFirstSteps(page);
  // The connection drops when the third track's copy is being fetched.
  let copies = 0;
  await page.route(/\/media\/audio\/.*offline=1/, (route) =>
    ++copies >= 3 ? route.abort('internetdisconnected') : route.continue(),
  );

  await page.getByRole('button', { name: 'Keep offline' }).click();
  await page
    .getByRole('dialog', { name: 'Keep “First Steps” offline?' })
    .getByRole('button', { name: 'Keep offline' })
    .click();
  await expect(page.getByRole('alert')).toContainText(
    'The download stopped. Check your connection and try again. Nothing was kept.',
  );
  expect(copies).toBe(3);
  await expect(page.getByRole('button', { name: 'Keep offline' })).toBeVisible();
  expect(await offlineStorage(page)).toEqual({ keys: [], kept: [] });
});
