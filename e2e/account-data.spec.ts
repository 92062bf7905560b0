import fs from 'node:fs';
import { expect, signUpViaApi, test } from './fixtures.ts';

// Security and data rights on the account page: change the password, download my data, delete the
// account; and "sign out everywhere" ending a second browser's session.
test('a listener changes the password, downloads their data and deletes the account', async ({ page }) => {
  const me = await signUpViaApi(page, 'leaver');
  await page.request.post('/api/playlists', { data: { name: 'Leaving list', expLevel: 1 } });
  await page.goto('/account');

  const security = page.locator('section', { hasText: 'Security and your data' });
  await security.getByLabel('Current password').fill('not my password');
  await security.getByLabel('New password').fill('a new password 42');
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByRole('alert')).toHaveText('The current password is not right.');
  await security.getByLabel('Current password').fill(me.password);
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();
  await expect(security.getByLabel('Current password')).toHaveValue('');

  const downloading = page.waitForEvent('download');
  await security.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`mesmer-${me.username}.json`);
  const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  expect(data.profile).toMatchObject({ username: me.username, email: me.email });
  expect(data.playlists.map((p: { name: string }) => p.name)).toEqual(['Leaving list']);

  await security.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account' });
  await dialog.getByLabel('Your password').fill(me.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The password is not right.');
  await dialog.getByLabel('Your password').fill('a new password 42');
  await dialog
    .getByLabel('Hand them to the site as a former member’s, private until staff review them')
    .check();
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Your account was deleted.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const login = await page.request.post('/api/token', {
    data: { user: me.username, password: 'a new password 42' },
  });
  expect(login.status()).toBe(401);
});

test('sign out everywhere ends the session in another browser too', async ({ page, browser }) => {
  const me = await signUpViaApi(page, 'roamer');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const signedIn = await otherPage.request.post('/api/token', {
    data: { user: me.username, password: me.password },
  });
  expect(signedIn.status()).toBe(200);

  await page.goto('/account');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page
    .getByRole('dialog', { name: 'Sign out everywhere?' })
    .getByRole('button', { name: 'Sign out everywhere' })
    .click();
  await expect(page.getByText('Signed out everywhere.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const theirs = await otherPage.request.get('/api/user');
  expect((await theirs.json()).user).toBeNull();
  await other.close();
});
