import type { Browser, Page } from '@playwright/test';
import { expect, signUpViaApi, test } from './fixtures.ts';

/** A second signed-out browser (its own cookies), past the age gate, failing on uncaught page errors. */
async function newPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('ageConfirmed', 'true'));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, errors };
}

async function userId(page: Page): Promise<number> {
  return (await (await page.request.get('/api/user')).json()).user.id;
}

async function send(page: Page, threadId: number, message: string) {
  const res = await page.request.post('/api/messages', { data: { threadId, message } });
  expect(res.status(), await res.text()).toBe(200);
}

const PAYLOAD =
  '<script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> javascript:window.__pwned=3 see https://example.org/ok';

test('two people message in real time, with unread markers, the home banner, history and safe text', async ({
  page: alicePage,
  browser,
}) => {
  test.setTimeout(120_000);
  const { page: bobPage, errors: bobErrors } = await newPage(browser);
  const alice = await signUpViaApi(alicePage, 'alice');
  const bob = await signUpViaApi(bobPage, 'bob');

  const threadId =
    await test.step("alice starts the thread with the Message button on bob's profile", async () => {
      await alicePage.goto(`/user/${bob.username}`);
      await alicePage.getByRole('button', { name: 'Message', exact: true }).click();
      await expect(alicePage).toHaveURL(/\/messages\?thread=\d+$/);
      await expect(alicePage.getByRole('heading', { level: 2, name: bob.username })).toBeVisible();
      return Number(new URL(alicePage.url()).searchParams.get('thread'));
    });

  await test.step('seed 60 messages of history', async () => {
    for (let i = 1; i <= 60; i += 1) await send(alicePage, threadId, `Seed ${i}`);
  });

  await test.step('bob sees the home banner and New! on the thread', async () => {
    await bobPage.goto('/');
    const banner = bobPage.getByRole('complementary', { name: 'New messages' });
    await expect(banner).toBeVisible();
    await banner.getByRole('link', { name: 'View' }).click();
    await expect(bobPage).toHaveURL(/\/messages$/);
    const item = bobPage.getByRole('list', { name: 'Threads' }).getByRole('link', { name: /alice/ });
    await expect(item).toContainText(alice.username);
    await expect(item).toContainText('New!');
  });

  await test.step('alice scrolls back through the history', async () => {
    await alicePage.goto(`/messages?thread=${threadId}`);
    const list = alicePage.getByRole('list', { name: 'Messages' });
    await expect(list.getByText('Seed 60', { exact: true })).toBeVisible();
    await expect(list.getByText('Seed 1', { exact: true })).toHaveCount(0);
    await expect(async () => {
      await list.evaluate((el) => {
        el.scrollTop = 0;
      });
      await expect(list.getByText('Seed 1', { exact: true })).toBeAttached({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(list.locator('li[data-message-id]')).toHaveCount(60);
  });

  await test.step('bob opens the thread; it is no longer New!', async () => {
    await bobPage.getByRole('list', { name: 'Threads' }).getByRole('link', { name: /alice/ }).click();
    await expect(bobPage).toHaveURL(new RegExp(`thread=${threadId}`));
    await expect(
      bobPage.getByRole('list', { name: 'Messages' }).getByText('Seed 60', { exact: true }),
    ).toBeVisible();
    await expect(bobPage.getByRole('list', { name: 'Threads' }).getByText('New!')).toHaveCount(0);
  });

  await test.step('messages arrive in real time both ways', async () => {
    const aliceBox = alicePage.getByRole('textbox', { name: 'Message' });
    await aliceBox.fill('Hello bob');
    await aliceBox.press('Enter');
    await expect(aliceBox).toHaveValue('');
    await expect(bobPage.getByRole('list', { name: 'Messages' }).getByText('Hello bob')).toBeVisible();

    const bobBox = bobPage.getByRole('textbox', { name: 'Message' });
    await bobBox.fill('Hi alice');
    await bobBox.press('Shift+Enter');
    await bobBox.pressSequentially('second line');
    await expect(bobBox).toHaveValue('Hi alice\nsecond line');
    await bobBox.press('Enter');
    const reply = alicePage.getByRole('list', { name: 'Messages' }).getByText(/Hi alice/);
    await expect(reply).toBeVisible();
    expect(await reply.evaluate((el) => el.textContent)).toBe('Hi alice\nsecond line');
  });

  await test.step('a script payload is shown as text and runs nothing', async () => {
    const aliceBox = alicePage.getByRole('textbox', { name: 'Message' });
    await aliceBox.fill(PAYLOAD);
    await aliceBox.press('Enter');
    const list = bobPage.getByRole('list', { name: 'Messages' });
    const shown = list.getByText(/window.__pwned = 1/);
    await expect(shown).toBeVisible();
    expect(await shown.evaluate((el) => el.textContent)).toBe(PAYLOAD);
    const links = shown.getByRole('link');
    await expect(links).toHaveCount(1);
    await expect(links).toHaveAttribute('href', 'https://example.org/ok');
    await expect(links).toHaveAttribute('rel', 'noopener noreferrer');
    expect(await list.locator('script, img[src="x"]').count()).toBe(0);
    expect(await bobPage.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await alicePage.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  expect(bobErrors).toEqual([]);
  await bobPage.context().close();
});

test('below 800 px the list and the chat show one at a time', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 800 });
  const { page: other } = await newPage(page.context().browser() as Browser);
  await signUpViaApi(page, 'narrow');
  await signUpViaApi(other, 'friend');
  const created = await page.request.post('/api/messages/threads', {
    data: { name: null, userIds: String(await userId(other)) },
  });
  const threadId: number = (await created.json()).id;
  await page.goto('/messages');
  const threads = page.getByRole('list', { name: 'Threads' });
  await expect(threads).toBeVisible();
  await expect(page.getByText('Select a conversation to read it.')).toBeHidden();
  await threads.getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`thread=${threadId}`));
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(threads).toBeHidden();
  await page.getByRole('link', { name: 'Close chat' }).click();
  await expect(threads).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);

  await page.setViewportSize({ width: 1100, height: 800 });
  await threads.getByRole('link').first().click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await expect(threads).toBeVisible();
  await other.context().close();
});
