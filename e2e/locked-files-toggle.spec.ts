import { expect, signUpViaApi, test } from './fixtures.ts';

test("the Files page shows locked files with its toggle on, although the listener's setting hides them", async ({
  page,
}) => {
  await signUpViaApi(page, 'hider');
  const saved = await page.request.put('/api/user', { data: { hideLockedFiles: true } });
  expect(saved.status(), await saved.text()).toBe(200);

  // The setting decides where the page starts: no locked file, the toggle off.
  await page.goto('/files?q=velvet%20fog');
  const toggle = page.getByRole('switch', { name: 'Show locked files' });
  const velvetFog = page.getByRole('button', { name: /Velvet Fog/ });
  await page.getByRole('button', { name: 'Filters' }).click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  const results = page
    .getByRole('list', { name: 'Files', exact: true })
    .or(page.getByText('No results found.'));
  await expect(results).toBeVisible();
  await expect(velvetFog).toHaveCount(0);

  // The page's toggle wins on this page.
  await toggle.click();
  await expect(page).toHaveURL(/locked=1/);
  await expect(velvetFog.first()).toBeVisible();
  await expect(velvetFog.first().getByRole('img', { name: 'Locked' })).toBeVisible();

  // Off again: hidden again.
  await toggle.click();
  await expect(page).not.toHaveURL(/locked=/);
  await expect(velvetFog).toHaveCount(0);
});
