import type { Browser } from '@playwright/test';
import { expect, signUpViaApi, test } from './fixtures.ts';

/** An 8×8 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWNYZZyGFTEMLQkAnplQwY3L17gAAAAASUVORK5CYII=',
  'base64',
);

async function newContext(browser: Browser) {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
  return context;
}

test('a user edits their profile: picture and a markdown biography with a link', async ({ page }) => {
  const me = await signUpViaApi(page, 'painter');
  await page.goto(`/user/${me.username}`);
  await expect(page.getByText(/click the edit icon.*Markdown is supported/i)).toBeVisible();

  await page.getByRole('button', { name: 'Edit profile' }).click();
  await test.step('upload a picture', async () => {
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/user/upload'));
    await page
      .getByLabel('Profile picture')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    expect((await uploaded).status()).toBe(200);
    await expect(page.getByText('Profile picture updated.')).toBeVisible();
    const avatar = page.locator('img[src^="/avatars/"]').first();
    await expect(avatar).toBeVisible();
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  });

  await test.step('write the biography with the toolbar', async () => {
    const bio = page.getByRole('textbox', { name: 'Biography' });
    await bio.fill('I like ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.getByRole('button', { name: 'Link' }).click();
    const popup = page.getByRole('dialog', { name: 'Insert URL' });
    await popup.getByLabel('URL').fill('https://example.com/');
    await popup.getByLabel('Text').fill('my site');
    await popup.getByRole('button', { name: 'Insert' }).click();
    await expect(bio).toHaveValue('I like **bold text**[my site](https://example.com/)');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/user') && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Finish editing' }).click();
    expect((await saved).status()).toBe(200);
  });

  const bio = page.getByRole('region', { name: 'Biography' });
  await expect(bio.getByText('bold text')).toHaveJSProperty('tagName', 'STRONG');
  await expect(bio.getByRole('link', { name: 'my site' })).toHaveAttribute('href', 'https://example.com/');
  // Saved: a fresh load shows it.
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Biography' }).getByRole('link', { name: 'my site' }),
  ).toBeVisible();
  await expect(page.locator('img[src^="/avatars/"]').first()).toBeVisible();
});

test('two users befriend each other', async ({ page, browser }) => {
  const ann = await signUpViaApi(page, 'ann');
  const bobContext = await newContext(browser);
  const bobPage = await bobContext.newPage();
  const bob = await signUpViaApi(bobPage, 'bob');

  await page.goto(`/user/${bob.username}`);
  await expect(page.getByRole('button', { name: 'Message' })).toBeVisible();
  await page.getByRole('button', { name: 'Add friend' }).click();
  await expect(page.getByRole('button', { name: 'Requested' })).toBeVisible();

  await bobPage.goto('/account');
  const requests = bobPage.getByRole('region', { name: 'Friend requests' });
  await expect(requests.getByRole('link', { name: ann.username })).toBeVisible();
  await requests.getByRole('button', { name: `Accept ${ann.username}` }).click();
  await expect(
    bobPage.getByRole('region', { name: 'Your friends' }).getByRole('link', { name: ann.username }),
  ).toBeVisible();

  await page.reload();
  await expect(page.getByRole('button', { name: 'Friends' })).toBeVisible();
  await page.goto('/account');
  await expect(
    page.getByRole('region', { name: 'Your friends' }).getByRole('link', { name: bob.username }),
  ).toBeVisible();
  await bobContext.close();
});
