import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, lastMailTo, signUpViaApi, test } from './fixtures.ts';

const OWNER = { username: 'mesmer', email: 'mesmer@demo.mesmer.local' };

/** Signs the demo site owner (an Administrator with a random password) in, through a password reset. */
async function signInAsOwner(request: APIRequestContext) {
  const asked = await request.post('/api/reset_password', { data: OWNER });
  expect(asked.status(), await asked.text()).toBe(200);
  await expect.poll(async () => (await lastMailTo(OWNER.email)).subject).toMatch(/reset/i);
  const token = new URL((await lastMailTo(OWNER.email)).link ?? '', 'http://x').searchParams.get('token');
  const password = `owner-${Date.now()}`;
  const reset = await request.post('/api/reset_password', { data: { token, password } });
  expect(reset.status(), await reset.text()).toBe(204);
  const login = await request.post('/api/token', {
    data: { user: OWNER.username, password, timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
}

async function permissionsOf(request: APIRequestContext): Promise<string[]> {
  return (await (await request.get('/api/user')).json()).user.permissions;
}

async function newContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext(options);
  await context.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
  return context;
}

test('an administrator makes a new creator on their page, who can upload at once', async ({
  page,
  browser,
}) => {
  const creatorContext = await newContext(browser);
  const creatorPage = await creatorContext.newPage();
  const creator = await signUpViaApi(creatorPage, 'maker');
  expect(await permissionsOf(creatorPage.request)).toEqual([]);

  await signInAsOwner(page.request);
  await page.goto(`/user/${creator.username}`);
  const roles = page.getByRole('region', { name: 'Roles' });
  await expect(roles.getByText('No roles.')).toBeVisible();

  await test.step('grant Verified Creator', async () => {
    await roles.getByRole('combobox', { name: 'Role to add' }).selectOption('Verified Creator');
    await roles.getByRole('button', { name: 'Add role' }).click();
    await expect(roles.getByRole('button', { name: 'Remove role Verified Creator' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Badges' }).getByText('Verified Creator')).toBeVisible();
    // The creator's same session has the upload permission on its very next request.
    expect(await permissionsOf(creatorPage.request)).toEqual(['UPLOAD_ALL_FILES', 'REQUEST_TRIGGERS']);
  });

  await test.step('the creator sees the badge, without the controls', async () => {
    await creatorPage.goto(`/user/${creator.username}`);
    await expect(
      creatorPage.getByRole('list', { name: 'Badges' }).getByText('Verified Creator'),
    ).toBeVisible();
    await expect(creatorPage.getByRole('region', { name: 'Roles' })).toHaveCount(0);
  });

  await test.step('revoke it with the keyboard', async () => {
    await roles.getByRole('button', { name: 'Remove role Verified Creator' }).focus();
    await page.keyboard.press('Enter');
    await expect(roles.getByText('No roles.')).toBeVisible();
    await expect(roles.getByRole('combobox', { name: 'Role to add' })).toBeFocused();
    expect(await permissionsOf(creatorPage.request)).toEqual([]);
  });

  await test.step('fits a phone screen', async () => {
    // The administrator's session, on a phone.
    const phone = await newContext(browser, {
      viewport: { width: 360, height: 740 },
      storageState: await page.context().storageState(),
    });
    const phonePage = await phone.newPage();
    await phonePage.goto(`/user/${creator.username}`);
    const phoneRoles = phonePage.getByRole('region', { name: 'Roles' });
    await phoneRoles.getByRole('combobox', { name: 'Role to add' }).selectOption('Music Creator');
    await phoneRoles.getByRole('button', { name: 'Add role' }).click();
    await expect(phoneRoles.getByRole('button', { name: 'Remove role Music Creator' })).toBeVisible();
    const width = await phonePage.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await phonePage.screenshot({ path: test.info().outputPath('roles-phone.png'), fullPage: true });
    await phone.close();
  });
  await creatorContext.close();
});
