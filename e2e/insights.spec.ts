import { type APIRequestContext, type Browser, request as playwrightRequest } from '@playwright/test';
import { AGE_CONFIRMED_KEY, expect, signInAsOwner, signUpViaApi, test, uniqueName } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

const baseURL = `http://localhost:${E2E_PORT}`;

interface DemoFile {
  id: number;
  uuid: string;
  audioURL: string;
  duration: number;
}

/** A demo file no other journey plays, so its figures are this journey's alone. */
async function demoFile(request: APIRequestContext, name: string): Promise<DemoFile> {
  const res = await request.get('/api/files', { params: { nameQuery: name } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
  expect(file, name).toBeTruthy();
  return file;
}

/** The audio's size in bytes (a one-byte range outside any session: nothing is credited for it). */
async function audioSize(request: APIRequestContext, file: DemoFile): Promise<number> {
  const res = await request.get(file.audioURL, { headers: { Range: 'bytes=0-0' } });
  expect(res.status()).toBe(206);
  return Number(res.headers()['content-range'].split('/')[1]);
}

/** Starts a session, as the player does when a file page's Play is pressed. */
async function startSession(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/session', { data: { timezone: 'UTC', source: 'file-page' } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/** Fetches the first `share` of the audio under the session: where the listener stopped. */
async function hear(request: APIRequestContext, file: DemoFile, size: number, token: string, share: number) {
  const last = Math.floor(size * share) - 1;
  const res = await request.get(`${file.audioURL}&session=${token}`, {
    headers: { Range: `bytes=0-${last}` },
  });
  expect([200, 206]).toContain(res.status());
  await res.body();
}

async function endSession(request: APIRequestContext, file: DemoFile, token: string) {
  const res = await request.post('/api/session', {
    data: { sessionToken: token, fileId: file.id, timezone: 'UTC' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A browser page signed in as the site owner, the demo files' uploader. */
async function ownerPage(browser: Browser) {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((key) => localStorage.setItem(key, 'true'), AGE_CONFIRMED_KEY);
  await signInAsOwner(context.request);
  return { context, page: await context.newPage() };
}

test('listeners stop at different points; the creator sees the retention drop there; a listener sees their calendar', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The journey's own listener, in the page; five more through the API.
  await signUpViaApi(page, 'insme');
  const others = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const request = await playwrightRequest.newContext({ baseURL });
      const username = uniqueName('insl');
      const res = await request.post('/api/register', {
        data: {
          user: username,
          email: `${username.toLowerCase()}@example.com`,
          password: 'listen-deeply-42',
        },
      });
      expect(res.status()).toBe(201);
      return request;
    }),
  );
  const listeners = [page.request, ...others];
  const feather = await demoFile(page.request, 'Falling Feather');
  const size = await audioSize(page.request, feather);

  // Three listen to the end; three stop at 60% of the track.
  const tokens = await Promise.all(listeners.map((request) => startSession(request)));
  await Promise.all(listeners.map((request, i) => hear(request, feather, size, tokens[i], i < 3 ? 1 : 0.6)));
  await page.request.post('/api/test/clock', { data: { advanceMs: feather.duration + 5_000 } });
  for (const [i, request] of listeners.entries()) await endSession(request, feather, tokens[i]);

  // The page's listener also hears a 45-second track: over a minute in their day.
  const mist = await demoFile(page.request, 'Mist Ambient');
  const mistToken = await startSession(page.request);
  await hear(page.request, mist, await audioSize(page.request, mist), mistToken, 1);
  await page.request.post('/api/test/clock', { data: { advanceMs: mist.duration + 5_000 } });
  await endSession(page.request, mist, mistToken);
  for (const request of others) await request.dispose();

  // The creator opens the file: the retention table says 100% until 60% of the track, then 50%.
  const owner = await ownerPage(browser);
  await owner.page.goto(`/file/${feather.uuid}`);
  const panel = owner.page.getByRole('region', { name: 'Insights' });
  const retention = panel.getByRole('table', { name: 'Retention' });
  await expect(retention.locator('tbody tr')).toHaveCount(100);
  const stillListening = (part: number) => retention.locator('tbody tr').nth(part).locator('td').nth(1);
  await expect(stillListening(0)).toHaveText('100%');
  await expect(stillListening(59)).toHaveText('100%');
  await expect(stillListening(60)).toHaveText('50%');
  await expect(stillListening(99)).toHaveText('50%');
  await expect(panel.getByText(/The steepest drop, 50% of listeners, is at 0:12\./)).toBeVisible();
  const figure = (term: string) =>
    panel.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(figure('Plays')).toHaveText('6');
  await expect(figure('Unique listeners')).toHaveText('6');
  await expect(figure('Completion rate')).toHaveText('50%');
  // The chart takes keyboard focus; its table shows on demand.
  await panel.getByRole('figure', { name: 'Retention' }).focus();
  await expect(panel.getByRole('figure', { name: 'Retention' })).toBeFocused();
  await panel.getByRole('region', { name: 'Retention' }).getByRole('button', { name: 'Show table' }).click();
  await expect(retention).toBeVisible();
  await owner.context.close();

  // The listener opens "Your listening" from the menu and finds today in their calendar.
  const today = (await (await page.request.get('/api/insights/listening')).json()).to as string;
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('link', { name: 'Your listening' }).click();
  await expect(page).toHaveURL(/\/insights\/listening$/);
  const calendar = page.getByRole('table', { name: 'Minutes per day' });
  await expect(calendar.locator('tbody tr')).toHaveCount(1);
  await expect(calendar.locator('tbody tr td').first()).toHaveText(today);
  await expect(calendar.locator('tbody tr td').nth(1)).toHaveText('1');
  await expect(page.getByRole('figure', { name: 'Minutes per day' }).locator('rect > title')).toHaveCount(
    365,
  );

  // A listener's view of the file has no insights panel, and the server refuses them the figures.
  await page.goto(`/file/${feather.uuid}`);
  await expect(page.getByRole('heading', { name: 'Falling Feather', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Insights' })).toHaveCount(0);
  expect((await page.request.get(`/api/insights/files/${feather.id}`)).status()).toBe(403);
});
