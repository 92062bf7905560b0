import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signUpViaApi, test } from './fixtures.ts';

/** Reading a file's script (demo files with one: packages/server/src/db/seed/demo-catalogue.ts). */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function demoFile(request: APIRequestContext, name: string) {
  const res = await request.get('/api/files', { params: { nameQuery: name, pageSize: 50 } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
  expect(file, `demo file ${name}`).toBeTruthy();
  return file as { uuid: string; scriptURL: string | null; isLocked: boolean };
}

const DRIFTING_DOWN_SCRIPT =
  'Drifting Down\n\nLet your eyes close... ten... nine... each number a step further down...\n';

const scriptRegion = (page: Page, name: string) => page.getByRole('region', { name: `Script of ${name}` });

test('a listener reads a script on the file page and from the player, and copies it', async ({ page }) => {
  await signUpViaApi(page, 'reader');
  const file = await demoFile(page.request, 'Drifting Down');
  await page.goto(`/file/${file.uuid}`);
  await expect(page.getByRole('heading', { name: 'Drifting Down', level: 1 })).toBeVisible();

  await test.step('the file page shows the script in its own scrolling box', async () => {
    await expect(page.getByRole('heading', { name: 'Script', level: 2 })).toBeVisible();
    const region = scriptRegion(page, 'Drifting Down');
    await expect(region).toHaveText(DRIFTING_DOWN_SCRIPT, { useInnerText: true });
    const style = await region.evaluate((el) => {
      const s = getComputedStyle(el);
      return { overflowY: s.overflowY, maxHeight: s.maxHeight, whiteSpace: s.whiteSpace };
    });
    expect(style).toEqual({
      overflowY: 'auto',
      maxHeight: expect.stringMatching(/px$/),
      whiteSpace: 'pre-wrap',
    });
  });

  await test.step('Copy script puts the text on the clipboard', async () => {
    await page.getByRole('button', { name: 'Copy script' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(DRIFTING_DOWN_SCRIPT);
  });

  await test.step("the player's Script button opens the current track's script", async () => {
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const bar = page.getByRole('region', { name: 'Audio player' });
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
    // Keyboard users reach the script box; Space there scrolls it instead of pausing the player.
    const region = scriptRegion(page, 'Drifting Down');
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press('Space');
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();

    // On another page, the bar opens the script of what is playing.
    await page.getByRole('link', { name: 'Mesmer home' }).click();
    await expect(page).not.toHaveURL(/\/file\//);
    await bar.getByRole('button', { name: 'Script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Script: Drifting Down' });
    await expect(dialog).toBeVisible();
    await expect(scriptRegion(page, 'Drifting Down')).toHaveText(DRIFTING_DOWN_SCRIPT, {
      useInnerText: true,
    });
    await dialog.getByRole('button', { name: 'Copy script' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test("the player's Script button is disabled for a track without a script", async ({ page }) => {
  const file = await demoFile(page.request, 'Ocean Breath');
  expect(file.scriptURL).toBeNull();
  await page.goto(`/file/${file.uuid}`);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  const bar = page.getByRole('region', { name: 'Audio player' });
  await expect(bar.getByRole('button', { name: 'Script' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Script' })).toHaveCount(0);
});

test("a locked file's script stays locked like its audio", async ({ page }) => {
  await signUpViaApi(page, 'nonmember');
  const file = await demoFile(page.request, 'The Deep Session');
  expect(file).toMatchObject({ isLocked: true, scriptURL: null });
  await page.goto(`/file/${file.uuid}`);
  await expect(page.getByText('Locked', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Script' })).toHaveCount(0);
});

test('a script that fails to load shows nothing', async ({ page }) => {
  let asked = 0;
  await page.route('**/media/scripts/**', (route) => {
    asked += 1;
    return route.fulfill({ status: 403, json: { error: 'This link has expired or is not valid.' } });
  });
  const file = await demoFile(page.request, 'Restful Nights');
  expect(file.scriptURL).toBeTruthy();
  await page.goto(`/file/${file.uuid}`);
  await expect(page.getByRole('heading', { name: 'Restful Nights', level: 1 })).toBeVisible();
  await expect.poll(() => asked).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Script' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy script' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Restful Nights', level: 1 })).toBeVisible();
});
