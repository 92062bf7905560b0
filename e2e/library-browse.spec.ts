import { expect, signUpViaApi, test } from './fixtures.ts';

test('open a training plan and reset progress', async ({ page }) => {
  await signUpViaApi(page, 'planner');
  await page.goto('/plans');
  await page.getByRole('link', { name: /Relaxation Basics/ }).click();
  await expect(page.getByRole('heading', { name: 'Relaxation Basics', level: 1 })).toBeVisible();
  const day2 = page.getByRole('listitem', { name: /^Day 2:/ });
  await expect(day2.getByText('Complete the above stages to unlock!')).toBeVisible();

  // Progress saved elsewhere shows on the next visit: days 1 and 2 done.
  const planId = await page.evaluate(async (uuid) => {
    const res = await fetch(`/api/series?uuid=${uuid}`);
    return (await res.json()).series.id as number;
  }, page.url().split('/').pop());
  const saved = await page.request.put('/api/userseries', { data: { id: planId, playlistIndex: 3 } });
  expect(saved.ok()).toBe(true);
  await page.reload();
  await expect(day2.getByText('Complete the above stages to unlock!')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Play day 3' })).toBeEnabled();

  await page.getByRole('button', { name: 'Reset Progress' }).click();
  await page.getByRole('dialog', { name: 'Reset progress?' }).getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Progress reset!')).toBeVisible();
  await expect(day2.getByText('Complete the above stages to unlock!')).toBeVisible();
  await page.reload();
  await expect(day2.getByText('Complete the above stages to unlock!')).toBeVisible();
});

test('generate a playlist', async ({ page }) => {
  await page.goto('/playlist/generate');
  await expect(page.getByRole('switch', { name: 'Include induction' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByRole('switch', { name: 'Include loops' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('slider', { name: 'Max length' })).toHaveValue(String(1.5 * 3_600_000));
  await page.getByRole('button', { name: 'Generate' }).click();
  const list = page.getByRole('list', { name: 'Generated playlist' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await expect(page.getByText(/Total time: /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  await page.getByRole('slider', { name: 'Max length' }).fill('0');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByText('No playlist could be generated with the current settings.')).toBeVisible();
});

test('open a trigger by name, and unknown names and users go to the 404 page', async ({ page }) => {
  await page.goto('/triggers');
  // The vocabulary's core triggers come grouped by category.
  const relaxation = page
    .getByRole('list', { name: 'Core Triggers' })
    .getByRole('list', { name: 'Relaxation' });
  await expect(relaxation.getByRole('link', { name: /Deep Breath/ })).toBeVisible();
  await relaxation.getByRole('link', { name: /Sleep Now/ }).click();
  await expect(page).toHaveURL(/\/trigger\/sleep_now$/);
  await expect(page.getByRole('heading', { name: 'Sleep Now', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Trained In' }).click();
  await expect(
    page
      .getByRole('list', { name: 'Files that train this trigger' })
      .getByRole('button', { name: 'Sleep Now', exact: true }),
  ).toBeVisible();

  await page.goto('/trigger/Moon%20Glow');
  await expect(page.getByRole('heading', { name: /Moon Glow/, level: 1 })).toBeVisible();
  await expect(page.getByText('Community', { exact: true })).toBeVisible();

  await page.goto('/trigger/no_such_trigger');
  await expect(page).toHaveURL(/\/404$/);
  await page.goto('/user/nobody');
  await expect(page).toHaveURL(/\/404$/);
});

test('a user page lists that user’s public playlists', async ({ page }) => {
  await page.goto('/user/velvetvoice');
  await expect(page.getByRole('heading', { name: 'velvetvoice', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Public playlists' }).getByRole('link', { name: /Velvet Hour/ }),
  ).toBeVisible();
  await expect(page.getByText('Verified Creator')).toBeVisible();
});

test('a file page plays and links back to its author', async ({ page }) => {
  await page.goto('/files?q=ocean');
  await page.getByRole('button', { name: 'About Ocean Breath' }).click();
  await page
    .getByRole('dialog', { name: 'Ocean Breath' })
    .getByRole('link', { name: 'Open file page' })
    .click();
  await expect(page.getByRole('heading', { name: 'Ocean Breath', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  await page.goto('/file/00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/404$/);
});
