import { expect, test } from './fixtures.ts';

test('the app shell loads with the Mesmer header', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Mesmer home' })).toBeVisible();
});
