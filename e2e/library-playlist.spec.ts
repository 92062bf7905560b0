import type { Locator, Page } from '@playwright/test';
import { expect, signUpViaApi, test } from './fixtures.ts';

const playlistRows = (page: Page) => page.getByRole('list', { name: 'Playlist files' }).getByRole('listitem');

/** Drags a row by its grip with the mouse in small steps, as @hello-pangea/dnd expects. */
async function drag(page: Page, from: Locator, to: Locator) {
  const a = (await from.getByRole('button', { name: /^Drag / }).boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 5 });
  await page.mouse.move(a.x + a.width / 2, b.y + 5, { steps: 20 });
  await page.waitForTimeout(300);
  await page.mouse.up();
}

test('create a playlist, add files, reorder by drag, disable one and keep it after reload', async ({
  page,
}) => {
  // The editor's Add Files search is for uploaders: sign in as the demo Music Creator.
  const login = await page.request.post('/api/token', {
    data: { user: 'sonicmist', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  await page.goto('/');

  // Create Playlist popup: a missing level is highlighted.
  await page.getByRole('button', { name: 'Create playlist' }).click();
  const popup = page.getByRole('dialog', { name: 'Create Playlist' });
  await popup.getByRole('textbox', { name: 'Name' }).fill('Evening Mix');
  await popup.getByRole('button', { name: 'Create' }).click();
  await expect(popup.getByText('Please fill out all highlighted fields.')).toBeVisible();
  await popup.getByRole('combobox', { name: 'Experience level' }).selectOption('Beginner');
  await popup.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Playlist created!')).toBeVisible();
  await expect(popup).toBeHidden();

  await page
    .getByRole('list', { name: 'My playlists' })
    .getByRole('link', { name: /Evening Mix/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Evening Mix' })).toBeVisible();
  await expect(page.getByText('This playlist has no files!')).toBeVisible();

  // Edit: add three files from the search.
  await page.getByRole('button', { name: 'Edit' }).click();
  const search = page.getByRole('searchbox', { name: 'Add Files' });
  const results = page.getByRole('list', { name: 'Add Files results' });
  for (const name of ['Velvet Whispers', 'Velvet Loop', 'Velvet Wake']) {
    await search.fill(name);
    await results.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  }
  await expect(playlistRows(page)).toHaveCount(3);
  await expect(playlistRows(page).nth(0)).toContainText('Velvet Whispers');

  // Drag the last one to the top, then turn the middle one off.
  await drag(page, playlistRows(page).nth(2), playlistRows(page).nth(0));
  await expect(playlistRows(page).nth(0)).toContainText('Velvet Wake');
  await expect(playlistRows(page).nth(1)).toContainText('Velvet Whispers');
  await page.getByRole('button', { name: 'Velvet Loop', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Velvet Loop\s*\(disabled\)$/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Playlist updated!')).toBeVisible();

  await page.reload();
  await expect(playlistRows(page)).toHaveCount(3);
  await expect(playlistRows(page).nth(0)).toContainText('Velvet Wake');
  await expect(playlistRows(page).nth(1)).toContainText('Velvet Whispers');
  await expect(playlistRows(page).nth(2)).toContainText('Velvet Loop');
  await expect(page.getByRole('button', { name: /^Velvet Loop\s*\(disabled\)$/ })).toBeVisible();

  // The owner deletes it and lands on the home page.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Delete playlist' }).click();
  await page
    .getByRole('dialog', { name: 'Delete playlist?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Playlist deleted!')).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'My playlists' }).getByRole('link', { name: /Evening Mix/ }),
  ).toHaveCount(0);
});

test('a listener without upload permission edits a playlist without the Add Files search', async ({
  page,
}) => {
  await signUpViaApi(page, 'listener');
  const res = await page.request.post('/api/playlists', { data: { name: 'Plain List', expLevel: 1 } });
  const { uuid } = await res.json();
  await page.goto(`/playlist/${uuid}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Add Files' })).toHaveCount(0);
});

test('add a file to a playlist from the track popup', async ({ page }) => {
  await signUpViaApi(page, 'adder');
  await page.request.post('/api/playlists', { data: { name: 'Quick Adds', expLevel: 2 } });
  await page.goto('/files?q=ocean');
  await page.getByRole('button', { name: 'About Ocean Breath' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ocean Breath' });
  await dialog.getByRole('button', { name: 'Add to playlist' }).click();
  await dialog
    .getByRole('list', { name: 'Your playlists' })
    .getByRole('button', { name: /Quick Adds/ })
    .click();
  await expect(page.getByText('Added to playlist!')).toBeVisible();
  await expect(
    dialog
      .getByRole('list', { name: 'Your playlists' })
      .getByRole('img', { name: 'Already in this playlist' }),
  ).toBeVisible();
});
