import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { sineFile } from '../packages/server/src/test/audio-fixtures.ts';
import { expect, signInAsOwner, signUpViaApi, test, uniqueName } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

const UPLOAD_PATH = '/api/files/upload';

let owner: APIRequestContext;

/** The demo site owner (an Administrator), signed in once for this file. */
test.beforeAll(async ({ playwright }) => {
  owner = await playwright.request.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
  await signInAsOwner(owner);
});
test.afterAll(() => owner?.dispose());

/** A new account on `page`, made a Verified Creator by the administrator. */
async function signUpCreator(page: Page) {
  const account = await signUpViaApi(page, 'creator');
  const { user } = await (await page.request.get('/api/user')).json();
  const granted = await owner.put(`/api/users/${user.id}/roles`, { data: { role: 'Verified Creator' } });
  expect(granted.status(), await granted.text()).toBe(200);
  return account;
}

const UNTHROTTLED = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

/** Slows the page's uploads to `bytesPerSecond` (Chromium's network emulation). */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { ...UNTHROTTLED, uploadThroughput: bytesPerSecond });
  return cdp;
}

function uploadCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === UPLOAD_PATH) calls.push(req.url());
  });
  return calls;
}

async function openUploadDialog(page: Page) {
  await page.goto('/files');
  await page.getByRole('button', { name: 'Upload a file' }).click();
  return page.getByRole('dialog', { name: 'Upload a file' });
}

test('a creator uploads mp3, flac, wav and m4a through the dialog and finds them in My Files', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpCreator(page);
  const myFiles = page.getByRole('list', { name: 'My files' });

  for (const [i, format] of (['mp3', 'flac', 'wav', 'm4a'] as const).entries()) {
    await test.step(format, async () => {
      const name = `${uniqueName('Track')} ${format}`;
      const dialog = await openUploadDialog(page);
      // The first upload goes through a slow line, so its progress can be watched.
      const line = i === 0 ? await throttleUploads(page, 100_000) : null;
      await dialog.getByLabel('Audio file').setInputFiles(await sineFile(format, i === 0 ? 20 : 3));
      if (line) {
        const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
        await expect(bar).toBeVisible();
        await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
        await expect(dialog.getByText(/^[\d.]+ kB of [\d.]+ kB$/)).toBeVisible();
        await expect(dialog.getByText(/^\d+%$/)).toBeVisible();
        await line.send('Network.emulateNetworkConditions', UNTHROTTLED);
      }
      await expect(dialog.getByText('Upload complete. Fill in the details and save the file.')).toBeVisible();
      await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue(/sine/);
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('combobox', { name: 'File type' }).selectOption({ label: 'Induction' });
      await dialog.getByRole('button', { name: 'Save file' }).click();
      await expect(page.getByText('File uploaded!').first()).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(myFiles.getByText(name)).toBeVisible();
    });
  }
});

test('an upload cut off midway by a reload resumes, sending only the missing chunk', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpCreator(page);
  // 1,000 s of mono 16-bit wav: about 88 MB, two chunks.
  const long = await sineFile('wav', 1000);
  // The second chunk is held at the network and never answered, so the reload cuts it off before the
  // server reads a byte of it (on an open line it could land while the page reloads).
  let chunkPosts = 0;
  let secondChunkSent: () => void = () => {};
  const secondChunkHeld = new Promise<void>((resolve) => {
    secondChunkSent = resolve;
  });
  const isUpload = (url: URL) => url.pathname === UPLOAD_PATH;
  await page.route(isUpload, async (route) => {
    if (route.request().method() === 'POST' && ++chunkPosts === 2) return secondChunkSent();
    await route.fallback();
  });
  const dialog = await openUploadDialog(page);
  const firstChunk = page.waitForResponse(
    (res) => new URL(res.url()).pathname === UPLOAD_PATH && res.request().method() === 'POST',
    { timeout: 60_000 },
  );
  await dialog.getByLabel('Audio file').setInputFiles(long);
  expect((await firstChunk).status()).toBe(200);
  await secondChunkHeld;
  await page.reload();
  await page.unroute(isUpload);
  const uploads = page.getByRole('list', { name: 'Unfinished uploads' });
  await expect(uploads.getByText('Receiving: 1 of 2 chunks received')).toBeVisible();
  const calls = uploadCalls(page);
  await uploads.getByRole('button', { name: /^Resume / }).click();
  const resumed = page.getByRole('dialog', { name: 'Upload a file' });
  await expect(resumed.getByText(/again to resume its upload/)).toBeVisible();
  await resumed.getByLabel('Audio file').setInputFiles(long);
  await expect(resumed.getByText('Upload complete. Fill in the details and save the file.')).toBeVisible({
    timeout: 90_000,
  });
  // Chunk 1 and the completing call only.
  expect(calls).toHaveLength(2);
  const name = uniqueName('Resumed');
  await resumed.getByRole('textbox', { name: 'Name' }).fill(name);
  await resumed.getByRole('combobox', { name: 'File type' }).selectOption({ label: 'Loop' });
  await resumed.getByRole('button', { name: 'Save file' }).click();
  await expect(page.getByRole('list', { name: 'My files' }).getByText(name)).toBeVisible();
  await expect(uploads).toHaveCount(0);
});

test('the drop zone refuses a 351 MB file and two files; a text file named .mp3 gets the format error', async ({
  page,
}) => {
  await signUpCreator(page);
  const calls = uploadCalls(page);
  const dialog = await openUploadDialog(page);
  const drop = (sizes: number[]) =>
    page.getByTestId('upload-drop-zone').evaluate((zone, list) => {
      const data = new DataTransfer();
      for (const [i, size] of list.entries()) {
        // Megabyte pieces of one buffer: the browser keeps the blob without 351 MB of distinct bytes.
        const piece = new Uint8Array(Math.min(size, 1_000_000));
        const parts = Array.from({ length: Math.ceil(size / piece.length) }, () => piece);
        data.items.add(new File(parts, `file-${i}.mp3`, { type: 'audio/mpeg' }));
      }
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, sizes);

  await drop([351_000_000]);
  await expect(dialog.getByRole('alert')).toHaveText('The max file size is 350 MB.');
  await drop([10, 10]);
  await expect(dialog.getByRole('alert')).toHaveText('Only one file can be uploaded at a time.');
  expect(calls).toEqual([]);

  await dialog.getByLabel('Audio file').setInputFiles({
    name: 'notes.mp3',
    mimeType: 'audio/mpeg',
    buffer: Buffer.from('These are my notes, not a song.\n'.repeat(50)),
  });
  await expect(dialog.getByText(/Unsupported format/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();

  await test.step('fits a phone screen, the form reachable by keyboard', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('combobox', { name: 'File type' })).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: test.info().outputPath('upload-phone.png') });
  });
});

test('a listener without upload permission has no upload control', async ({ page }) => {
  await signUpViaApi(page, 'listener');
  await page.goto('/files');
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My Files' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Upload a file' })).toHaveCount(0);
  const refused = await page.request.get('/api/files/upload-options');
  expect(refused.status()).toBe(403);
});

test("a client sending exactly the spec's six fields, chunk first, uploads a file that then plays", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpCreator(page);
  await page.goto('/files');
  const bytes = fs.readFileSync(await sineFile('wav', 5));
  const uuid = crypto.randomUUID();
  // In the page, as a browser client would: FormData in the spec's order (chunk, secure, chunkIndex,
  // totalChunks, uuid, fileName), no chunkSize, the metadata also as headers; then the completing call.
  const answers = await page.evaluate(
    async ({ base64, uuid }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const headers = {
        'X-Upload-Id': uuid,
        'X-Chunk-Index': '0',
        'X-Total-Chunks': '1',
        'X-File-Name': encodeURIComponent('Spec client.wav'),
        'X-Secure': 'false',
      };
      const form = (chunk: boolean) => {
        const data = new FormData();
        if (chunk) data.append('chunk', new Blob([bytes]), 'blob');
        data.append('secure', 'false');
        data.append('chunkIndex', '0');
        data.append('totalChunks', '1');
        data.append('uuid', uuid);
        data.append('fileName', 'Spec client.wav');
        return data;
      };
      const out: { status: number; body: unknown }[] = [];
      for (const chunk of [true, false]) {
        const res = await fetch('/api/files/upload', { method: 'POST', headers, body: form(chunk) });
        out.push({ status: res.status, body: await res.json() });
      }
      return out;
    },
    { base64: bytes.toString('base64'), uuid },
  );
  expect(answers).toEqual([
    { status: 200, body: { data: { uuid } } },
    { status: 200, body: { data: { uuid } } },
  ]);
  const name = uniqueName('Spec client');
  const created = await page.request.post('/api/files', {
    data: {
      name,
      description: '',
      uuid,
      triggers: [],
      patreonTier: null,
      fileType: 2,
      trackNumber: null,
      releaseDate: null,
    },
  });
  expect(created.status(), await created.text()).toBe(200);

  // In the UI: it is in My Files, and its page plays it.
  await page.reload();
  const entry = page.getByRole('list', { name: 'My files' }).getByText(name);
  await expect(entry).toBeVisible();
  const listed = await (
    await page.request.get('/api/files', { params: { nameQuery: name, myFiles: 'true' } })
  ).json();
  const file = listed.files.find((f: { name: string }) => f.name === name);
  expect(file.uuid).not.toBe(uuid);
  const audio = await page.request.get(file.audioURL);
  expect(audio.status()).toBe(200);
  expect((await audio.body()).equals(bytes)).toBe(true);
  await page.goto(`/file/${file.uuid}`);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  const bar = page.getByRole('region', { name: 'Audio player' });
  await expect(bar.getByRole('link', { name })).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const element = document.getElementById('mesmer-audio') as HTMLAudioElement | null;
        return element ? !element.paused && element.currentTime > 0.5 : false;
      }),
    )
    .toBe(true);
});
