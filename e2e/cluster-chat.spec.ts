import type { Browser } from '@playwright/test';
import {
  createTempDatabase,
  type ServerProcess,
  startServerProcess,
  type TempDatabase,
} from '../packages/server/src/test/server-process.ts';
import { expect, signUpViaApi, test } from './fixtures.ts';
import { E2E_WEB_DIST } from './playwright.config.ts';

// The chat journey with the server run as two processes on PostgreSQL and Redis: alice
// uses one process and bob the other, and their messages still arrive at once.
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

test.skip(!adminUrl, 'TEST_DATABASE_URL is not set: the two-process chat needs PostgreSQL (and Redis)');

let database: TempDatabase;
const servers: ServerProcess[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createTempDatabase(adminUrl as string, 'mesmer_e2e_cluster');
  const env = { DATABASE_URL: database.url, REDIS_URL: `${redisUrl}/6`, WEB_DIST: E2E_WEB_DIST };
  // The first migrates alone; the second starts on the migrated database.
  servers.push(await startServerProcess(env));
  servers.push(await startServerProcess(env));
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await database?.drop();
});

async function pageOn(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
  return context.newPage();
}

test('two people on two server processes chat in real time', async ({ browser }) => {
  const [alicePage, bobPage] = [await pageOn(browser, servers[0].url), await pageOn(browser, servers[1].url)];
  const alice = await signUpViaApi(alicePage, 'alice');
  await signUpViaApi(bobPage, 'bob');
  const bobId = (await (await bobPage.request.get('/api/user')).json()).user.id;
  const thread = await alicePage.request.post('/api/messages/threads', {
    data: { name: null, userIds: String(bobId) },
  });
  const threadId = (await thread.json()).id;

  await alicePage.goto(`/messages?thread=${threadId}`);
  await bobPage.goto(`/messages?thread=${threadId}`);
  await expect(bobPage.getByRole('heading', { level: 2, name: alice.username })).toBeVisible();

  const aliceBox = alicePage.getByRole('textbox', { name: 'Message' });
  await aliceBox.fill('Hello from process one');
  await aliceBox.press('Enter');
  await expect(
    bobPage.getByRole('list', { name: 'Messages' }).getByText('Hello from process one'),
  ).toBeVisible();

  const bobBox = bobPage.getByRole('textbox', { name: 'Message' });
  await bobBox.fill('And back from process two');
  await bobBox.press('Enter');
  await expect(
    alicePage.getByRole('list', { name: 'Messages' }).getByText('And back from process two'),
  ).toBeVisible();
  await alicePage.context().close();
  await bobPage.context().close();
});
