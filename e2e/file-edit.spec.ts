import { expect, signUpViaApi, test } from './fixtures.ts';

/** A Funscript of three strokes: converted to haptic cues on the server. */
const FUNSCRIPT = JSON.stringify({
  version: '1.0',
  inverted: false,
  range: 100,
  actions: [
    { at: 0, pos: 0 },
    { at: 400, pos: 100 },
    { at: 800, pos: 0 },
    { at: 1200, pos: 100 },
  ],
});

test('a creator edits a file they uploaded and attaches a Funscript; a stranger sees no Edit', async ({
  page,
}) => {
  const login = await page.request.post('/api/token', {
    data: { user: 'lunadrift', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const found = await page.request.get('/api/files?nameQuery=Silver%20Deepener');
  const [file] = (await found.json()).files as { uuid: string; hasHaptics: boolean }[];
  expect(file?.hasHaptics).toBe(false);
  const url = `/file/${file?.uuid}`;

  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Silver Deepener' })).toBeVisible();
  const details = page.getByRole('list', { name: 'Details' });
  await expect(details).not.toContainText('Haptics');

  await test.step('unsaved changes ask before leaving edit mode', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit file' });
    await form.getByLabel('Description').fill('Sink slowly into silver light.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(form.getByLabel('Description')).toHaveValue('Sink slowly into silver light.');

    // A link elsewhere in the app is held too, until Exit is chosen or not.
    await page.getByRole('link', { name: 'Mesmer home' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(new RegExp(`${url}$`));
  });

  await test.step('a cleared file type is refused, then Save stores the edit', async () => {
    const form = page.getByRole('form', { name: 'Edit file' });
    await form.getByLabel('File type').selectOption({ label: 'File type...' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('alert')).toHaveText('The file type tag must be set.');
    await form.getByLabel('File type').selectOption({ label: 'Deepener' });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('File updated!')).toBeVisible();
    await expect(form).toBeHidden();
    await expect(page.getByText('Sink slowly into silver light.')).toBeVisible();
  });

  await test.step('a bad Funscript is refused with the reason; a good one becomes haptics', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    const upload = page.getByLabel('Upload Funscript (.funscript)', { exact: true });
    await upload.setInputFiles({
      name: 'bad.funscript',
      mimeType: 'application/json',
      buffer: Buffer.from('{"actions":[{"at":0,"pos":0}]}'),
    });
    await expect(page.getByRole('alert')).toHaveText('A funscript needs at least two actions.');
    await expect(page.getByText('No haptics')).toBeVisible();

    await upload.setInputFiles({
      name: 'silver.funscript',
      mimeType: 'application/json',
      buffer: Buffer.from(FUNSCRIPT),
    });
    await expect(page.getByText('Haptics attached')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(details).toContainText('Haptics');
  });

  const stored = await (await page.request.get(`/api/files?uuid=${file?.uuid}`)).json();
  expect(stored.files[0]).toMatchObject({ hasHaptics: true, description: 'Sink slowly into silver light.' });
  const cues = await (await page.request.get(stored.files[0].hapticsURL)).json();
  expect(cues.length).toBeGreaterThan(0);

  await test.step('a stranger sees the haptics but no Edit', async () => {
    expect((await page.request.delete('/api/token')).ok()).toBe(true);
    await signUpViaApi(page, 'stranger');
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Silver Deepener' })).toBeVisible();
    await expect(details).toContainText('Haptics');
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  });
});

test('the edit form on a phone, by keyboard, in the dark theme', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const login = await page.request.post('/api/token', {
    data: { user: 'lunadrift', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const found = await page.request.get('/api/files?nameQuery=Dream%20Suggestions');
  const [file] = (await found.json()).files as { uuid: string }[];
  await page.goto(`/file/${file?.uuid}`);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.getByRole('button', { name: 'Edit', exact: true }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Edit file' });
  await expect(form).toBeVisible();
  await expect(page.getByText('Script attached')).toBeVisible();

  await form.getByLabel('Description').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Sleep well.');
  await form.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(form.getByLabel('Description')).toHaveValue(/Sleep well\.$/);

  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
  await page.screenshot({ path: test.info().outputPath('file-edit-phone-dark.png'), fullPage: true });

  await form.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('File updated!')).toBeVisible();
  await expect(page.getByText(/Sleep well\./)).toBeVisible();
});
