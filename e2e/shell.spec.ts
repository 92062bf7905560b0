import { expect, signUpViaApi, test } from './fixtures.ts';

test('the theme toggle survives a reload', async ({ page }) => {
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('light'))).toBe('false');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test('an unknown path shows the 404 page and Go Home works', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: 'Oopsies! (404)' })).toBeVisible();
  await expect(page).toHaveTitle('Not Found - Mesmer');
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the age gate shows until confirmed and is remembered', async ({ page }) => {
  await page.goto('/');
  // The fixture pre-confirms the gate; this flag tells it not to, and the key is removed.
  await page.evaluate(() => {
    sessionStorage.setItem('e2e-keep-age-gate', 'true');
    localStorage.removeItem('ageConfirmed');
  });
  await page.reload();
  const gate = page.getByRole('alertdialog', { name: 'Adults only' });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole('button', { name: 'Leave' })).toBeVisible();
  // Nothing of the library shows behind the gate.
  await expect(page.getByRole('main')).toBeEmpty();
  await gate.getByRole('button', { name: 'I am 18 or older — Enter' }).click();
  await expect(gate).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome to Mesmer' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('ageConfirmed'))).toBe('true');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Mesmer home' })).toBeVisible();
  await expect(gate).toBeHidden();
});

test("a first visit's page shows the 18+ gate before any script runs, and stops once confirmed", async ({
  browser,
  baseURL,
}) => {
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const page = await noScript.newPage();
  await page.goto('/files');
  const gate = page.getByRole('alertdialog', { name: 'Adults only' });
  await expect(gate).toBeVisible();
  await expect(gate.getByRole('button', { name: 'I am 18 or older — Enter' })).toBeDisabled();
  await expect(page.getByRole('main')).toHaveCount(0);
  await noScript.addCookies([{ name: 'ageConfirmed', value: 'true', url: baseURL }]);
  await page.reload();
  await expect(gate).toHaveCount(0);
  await noScript.close();
});

test('the menu lists Messages only when logged in', async ({ page }) => {
  await page.goto('/');
  const menu = page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu.getByRole('link', { name: 'Leaderboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Wiki' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Messages' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(menu.getByRole('link', { name: 'Leaderboard' })).toBeHidden();

  const { username } = await signUpViaApi(page, 'menu');
  await page.reload();
  await expect(page.getByRole('link', { name: `Account (${username})` })).toBeVisible();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(menu.getByRole('link', { name: 'Messages' })).toBeVisible();
  await menu.getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(menu.getByRole('link', { name: 'Messages' })).toBeHidden();
});

test('pages set their title and canonical link, and the footer links the policies', async ({ page }) => {
  await page.goto('/about#haptics');
  await expect(page).toHaveTitle('About - Mesmer');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/about$/);
  await expect(page.getByRole('heading', { name: 'Haptics', exact: true })).toBeInViewport();
  await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link')).toHaveCount(12);
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveTitle('Privacy Policy - Mesmer');
  await footer.getByRole('link', { name: 'Cookie Policy' }).click();
  await expect(page.getByRole('cell', { name: 'mesmer_session' })).toBeVisible();
});

test('signing out and in follows across tabs', async ({ page, context }) => {
  const account = await signUpViaApi(page, 'tabs');
  const other = await context.newPage();
  await page.goto('/account');
  await other.goto('/');
  const signedIn = (p: typeof page) => p.getByRole('link', { name: `Account (${account.username})` });
  const logIn = (p: typeof page) => p.getByRole('banner').getByRole('link', { name: 'Log in' });
  await expect(signedIn(other)).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(logIn(other)).toBeVisible({ timeout: 2500 });

  await other.goto('/login');
  await other.getByLabel('Username').fill(account.username);
  await other.getByLabel('Password').fill(account.password);
  await other.getByRole('button', { name: 'Submit' }).click();
  await expect(other).toHaveURL(/\/$/);
  await expect(signedIn(page)).toBeVisible({ timeout: 2500 });
});
