import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, signInAsOwner, signUpViaApi, test } from './fixtures.ts';

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

test('a member blocks and reports another; a moderator suspends them from the queue', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const contexts = await Promise.all([newContext(browser), newContext(browser), newContext(browser)]);
  const [bobPage, modPage, ownerPage] = await Promise.all(contexts.map((c) => c.newPage()));
  const alice = await signUpViaApi(page, 'alice');
  const bob = await signUpViaApi(bobPage, 'bob');
  const mod = await signUpViaApi(modPage, 'mod');
  const idOf = async (p: typeof page) => (await (await p.request.get('/api/user')).json()).user.id as number;
  const bobId = await idOf(bobPage);

  const threadId = await test.step('bob writes something vile to alice', async () => {
    const thread = await page.request.post('/api/messages/threads', {
      data: { name: null, userIds: String(bobId) },
    });
    const id = (await thread.json()).id as number;
    const sent = await bobPage.request.post('/api/messages', {
      data: { threadId: id, message: 'you are awful' },
    });
    expect(sent.status()).toBe(200);
    return id;
  });

  await test.step('alice reports his profile, then blocks him with a report', async () => {
    await page.goto(`/user/${bob.username}`);
    await page.getByRole('button', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this profile' });
    await expect(dialog.getByRole('button', { name: 'Send report' })).toBeDisabled();
    await dialog.getByLabel('What is wrong?').fill('Insulting biography');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(page.getByText('Thank you. A moderator will look at it.')).toBeVisible();

    await page.goto(`/messages?thread=${threadId}`);
    await page.getByRole('button', { name: 'Block' }).click();
    await page.getByLabel('Also report to the moderators').check();
    await page.getByLabel('Details (optional)').fill('Harassment in messages');
    await page.getByRole('dialog').getByRole('button', { name: 'Block' }).click();
    await expect(page.getByText('The report was sent to the moderators.')).toBeVisible();
    const blocked = await bobPage.request.post('/api/messages', { data: { threadId, message: 'again' } });
    expect(blocked.status()).toBe(403);
  });

  await test.step('the site owner makes mod a Moderator', async () => {
    await signInAsOwner(ownerPage.request);
    const granted = await ownerPage.request.put(`/api/users/${await idOf(modPage)}/roles`, {
      data: { role: 'Moderator' },
    });
    expect(granted.status(), await granted.text()).toBe(200);
  });

  await test.step('the moderator finds both reports in the queue and suspends bob', async () => {
    await modPage.goto('/');
    await modPage.getByRole('button', { name: 'Open menu' }).click();
    await modPage.getByRole('link', { name: 'Moderation' }).click();
    await expect(modPage).toHaveURL(/\/moderation$/);
    const thread = modPage.getByRole('article', { name: `Conversation #${threadId}` });
    // Open reports are oldest first: another journey's reports may fill the first page for a moment.
    await expect(async () => {
      await modPage.reload();
      await expect(thread).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expect(thread.getByText('Harassment in messages')).toBeVisible();
    await expect(thread.getByText('you are awful')).toBeVisible();
    const profile = modPage.getByRole('article', { name: bob.username });
    await expect(profile.getByText('Insulting biography')).toBeVisible();
    await thread.getByLabel(/Note for report/).fill('Repeated abuse');
    await thread.getByRole('button', { name: `Suspend ${bob.username}` }).click();
    await expect(modPage.getByText(/Report #\d+ is closed\./)).toBeVisible();
    await expect(thread).toHaveCount(0);
    await expect(profile.getByText('Suspended')).toBeVisible();
    await profile.getByRole('button', { name: 'Dismiss' }).click();
    await expect(profile).toHaveCount(0);
    await modPage.getByRole('tab', { name: 'Log' }).click();
    const row = modPage.getByRole('row').filter({ hasText: 'Repeated abuse' });
    await expect(row).toContainText('Suspended');
    await expect(row).toContainText(mod.username);
  });

  await test.step("bob's session has ended and he cannot sign in", async () => {
    await bobPage.goto('/account');
    await expect(bobPage.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
    const login = await bobPage.request.post('/api/token', {
      data: { user: bob.username, password: bob.password, timezone: 'UTC' },
    });
    expect(login.status()).toBe(403);
    expect((await login.json()).error).toBe('This account is suspended.');
  });

  await test.step('a member gets no queue', async () => {
    await page.goto('/moderation');
    await expect(
      page.getByText('Only moderators and administrators can see the moderation queue.'),
    ).toBeVisible();
    expect(alice.username).toBeTruthy();
  });
  await Promise.all(contexts.map((c) => c.close()));
});
