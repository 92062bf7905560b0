import { expect, test } from './fixtures.ts';

const fileRows = (page: import('@playwright/test').Page) =>
  page.getByRole('list', { name: 'Files', exact: true }).getByRole('listitem');

test('browse files: search, sort, filter and page, all kept in the URL', async ({ page }) => {
  await page.goto('/files');
  await expect(page.getByRole('tab', { name: 'Hypnotic' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('date-desc');
  await expect(fileRows(page)).toHaveCount(20);
  await expect(fileRows(page).first()).toContainText('01');

  // Paging: the second page continues the numbering and survives a reload.
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(fileRows(page).first()).toContainText('21');
  await page.reload();
  await expect(fileRows(page).first()).toContainText('21');

  // Sorting goes back to page 1.
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('name-asc');
  await expect(page).not.toHaveURL(/page=/);
  await expect(page).toHaveURL(/sort=name-asc/);
  await expect(fileRows(page).first()).toContainText('Blank and Empty');

  // Keyword search.
  await page.getByRole('searchbox', { name: 'Search files' }).fill('velvet');
  await expect(page).toHaveURL(/q=velvet/);
  await expect(fileRows(page)).toHaveCount(5);
  for (const row of await fileRows(page).all()) await expect(row).toContainText('Velvet');

  // Filters: a duration bucket and hiding locked files.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Short (< 15 min)' }).click();
  await expect(page).toHaveURL(/duration=short/);
  await page.getByRole('switch', { name: 'Show locked files' }).click();
  await expect(page).toHaveURL(/locked=0/);
  await expect(page.getByRole('button', { name: /Velvet Fog/ })).toHaveCount(0);
  await expect(fileRows(page).first()).toBeVisible();

  // A shared link restores the same search.
  const url = page.url();
  await page.goto('/');
  await page.goto(url);
  await expect(page.getByRole('searchbox', { name: 'Search files' })).toHaveValue('velvet');
  await expect(page.getByRole('button', { name: 'Short (< 15 min)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('switch', { name: 'Show locked files' })).toHaveAttribute(
    'aria-checked',
    'false',
  );

  // A search that matches nothing.
  await page.getByRole('searchbox', { name: 'Search files' }).fill('zzzznothing');
  await expect(page.getByText('No results found.')).toBeVisible();

  // Switching to Music clears the chosen types and starts over.
  await page.getByRole('searchbox', { name: 'Search files' }).fill('');
  await page.getByRole('button', { name: 'Induction' }).click();
  await expect(page).toHaveURL(/types=1/);
  await page.getByRole('tab', { name: 'Music' }).click();
  await expect(page).toHaveURL(/tab=music/);
  await expect(page).not.toHaveURL(/types=/);
  await expect(page.getByRole('button', { name: 'AI music' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Induction' })).toHaveCount(0);
});

test('a locked file opens its paid-tier notice instead of playing', async ({ page }) => {
  await page.goto('/files?q=velvet%20fog');
  await page
    .getByRole('button', { name: /Velvet Fog/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Velvet Fog' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Paid tier' })).toHaveAttribute('aria-expanded', 'true');
  await expect(dialog.getByText(/Patreon supporters/)).toBeVisible();
});

test('the music page switches kinds with the type parameter', async ({ page }) => {
  await page.goto('/music');
  await expect(page.getByRole('list', { name: 'Music' }).getByRole('listitem').first()).toBeVisible();
  await page.getByRole('tab', { name: 'AI', exact: true }).click();
  await expect(page).toHaveURL(/type=ai/);
  await expect(page.getByRole('button', { name: 'Synthetic Tides', exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search music' }).fill('qqqqnothing');
  await expect(page.getByText('No results found.')).toBeVisible();
});

test("the track popup shows a file's details, and its uploader edits it there with the unsaved-changes question", async ({
  page,
}) => {
  const login = await page.request.post('/api/token', {
    data: { user: 'lunadrift', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  await page.goto('/files?q=dream%20suggestions');
  await page.getByRole('button', { name: 'About Dream Suggestions' }).first().click();
  const popup = page.getByRole('dialog', { name: 'Dream Suggestions' });
  await expect(popup.getByRole('list', { name: 'Details' })).toBeVisible();
  await expect(popup.getByText('Suggestions for vivid, peaceful dreams.')).toBeVisible();

  await test.step("edit mode asks 'Unsaved changes' before the popup closes", async () => {
    await popup.getByRole('button', { name: 'Edit' }).click();
    const form = popup.getByRole('form', { name: 'Edit file' });
    await expect(form.getByLabel('Name')).toHaveValue('Dream Suggestions');
    await form.getByLabel('Description').fill('Vivid, kind and peaceful dreams.');
    await page.keyboard.press('Escape');
    const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    await expect(form.getByLabel('Description')).toHaveValue('Vivid, kind and peaceful dreams.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeVisible();
  });

  await test.step('Save stores the edit and the popup shows it in view mode', async () => {
    await popup.getByRole('form', { name: 'Edit file' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('File updated!')).toBeVisible();
    await expect(popup.getByRole('form', { name: 'Edit file' })).toBeHidden();
    await expect(popup.getByText('Vivid, kind and peaceful dreams.')).toBeVisible();
    const res = await page.request.get('/api/files', { params: { nameQuery: 'Dream Suggestions' } });
    expect((await res.json()).files[0].description).toBe('Vivid, kind and peaceful dreams.');
  });

  await test.step('with unsaved changes, Exit closes the popup without saving', async () => {
    await popup.getByRole('button', { name: 'Edit' }).click();
    await popup.getByRole('form', { name: 'Edit file' }).getByLabel('Description').fill('Not kept');
    await popup.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Exit' }).click();
    await expect(popup).toBeHidden();
    const res = await page.request.get('/api/files', { params: { nameQuery: 'Dream Suggestions' } });
    expect((await res.json()).files[0].description).toBe('Vivid, kind and peaceful dreams.');
  });
});
