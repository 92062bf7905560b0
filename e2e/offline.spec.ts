import { expect, test } from './fixtures.ts';

// Installable and offline (issue 17 item 3): the manifest is served, the service worker keeps the
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
