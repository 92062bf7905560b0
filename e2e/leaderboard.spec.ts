import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { expect, signUpViaApi, test, uniqueName } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

const baseURL = `http://localhost:${E2E_PORT}`;

async function stillWater(request: APIRequestContext): Promise<{ id: number; audioURL: string }> {
  const res = await request.get('/api/files', { params: { nameQuery: 'Still Water' } });
  return (await res.json()).files[0];
}

/** Fetches the track's audio under the listening session, as the player does: only served audio earns points. */
async function fetchAudio(request: APIRequestContext, audioURL: string, sessionToken: string) {
  const res = await request.get(`${audioURL}&session=${sessionToken}`);
  expect(res.status()).toBe(200);
}

/**
 * Signs up `count` listeners and gives each the points of one session: two (2.5 minutes of
 * the 150-second track) or one (when only a minute was played). Uses the test-only clock.
 */
async function rankedListeners(prefix: string, count: number, points: 1 | 2): Promise<string[]> {
  const listeners = await Promise.all(
    Array.from({ length: count }, async () => {
      const request = await playwrightRequest.newContext({ baseURL });
      const username = uniqueName(prefix);
      const res = await request.post('/api/register', {
        data: {
          user: username,
          email: `${username.toLowerCase()}@example.com`,
          password: 'listen-deeply-42',
        },
      });
      expect(res.status()).toBe(201);
      const { token } = await (await request.post('/api/session', { data: { timezone: 'UTC' } })).json();
      return { request, username, token };
    }),
  );
  const file = await stillWater(listeners[0].request);
  const fileId = file.id;
  for (const { request, token } of listeners) await fetchAudio(request, file.audioURL, token);
  await listeners[0].request.post('/api/test/clock', { data: { advanceMs: 160_000 } });
  for (const { request, token } of listeners) {
    const res = await request.post('/api/session', {
      data: { sessionToken: token, fileId, timezone: 'UTC', listenedMs: points === 2 ? 150_000 : 60_000 },
    });
    expect((await res.json()).points).toBe(points);
    await request.dispose();
  }
  return listeners.map((l) => l.username);
}

test('ranks, ties, paging, my rank and top rank', async ({ page }) => {
  test.setTimeout(120_000);
  const leaders = await rankedListeners('lbtop', 51, 2);
  const me = await signUpViaApi(page, 'lbme');
  const { token } = await (await page.request.post('/api/session', { data: { timezone: 'UTC' } })).json();
  const { id: fileId, audioURL } = await stillWater(page.request);
  await fetchAudio(page.request, audioURL, token);
  await page.request.post('/api/test/clock', { data: { advanceMs: 61_000 } });
  await page.request.post('/api/session', { data: { sessionToken: token, fileId, timezone: 'UTC' } });

  await page.goto('/leaderboard');
  await expect(page).toHaveTitle('Leaderboard - Mesmer');
  const table = page.getByRole('table');
  const firstRank = table.getByRole('row').nth(1).getByRole('cell').first();
  await expect(firstRank).toHaveText('1');
  await expect(page.getByText(/^of \d+$/)).toBeVisible();

  await test.step('listeners with equal points share a rank', async () => {
    const ranks = new Set<string>();
    for (const name of leaders.slice(0, 5)) {
      const row = table.getByRole('row', { name: new RegExp(`\\b${name}\\b`) });
      if ((await row.count()) === 1) ranks.add((await row.getByRole('cell').first().textContent()) ?? '');
    }
    expect(ranks.size).toBe(1);
  });

  await test.step('a username links to the profile', async () => {
    const link = table.getByRole('link').first();
    await expect(link).toHaveAttribute('href', /^\/user\//);
  });

  await test.step('My rank jumps to the page with my row, highlighted', async () => {
    await page.getByRole('button', { name: 'My rank' }).click();
    await expect(page).toHaveURL(/[?&]page=\d+/);
    const mine = table.getByRole('row', { name: new RegExp(me.username) });
    await expect(mine).toHaveAttribute('aria-current', 'true');
    await expect(mine.getByText('You')).toBeVisible();
    await expect(mine.getByRole('cell').last()).toHaveText('1');
    const ranking = await (await page.request.get('/api/leaderboard/user')).json();
    await expect(mine.getByRole('cell').first()).toHaveText(String(ranking.ranking.rank));
    expect(ranking.ranking.rank).toBeGreaterThan(51);
  });

  await test.step('Top rank goes back to the first page', async () => {
    await page.getByRole('button', { name: 'Top rank' }).click();
    await expect(page).not.toHaveURL(/page=/);
    await expect(firstRank).toHaveText('1');
  });

  await test.step('the paginator moves between pages', async () => {
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page.getByRole('textbox', { name: 'Page' })).toHaveValue('2');
  });
});

test('a new listener without points is told they are not ranked yet', async ({ page }) => {
  await signUpViaApi(page, 'lbnew');
  await page.goto('/leaderboard');
  await page.getByRole('button', { name: 'My rank' }).click();
  await expect(page.getByText('Not on the leaderboard yet')).toBeVisible();
});

test('visitors see the board without My rank', async ({ page }) => {
  await page.goto('/leaderboard');
  await expect(page.getByRole('button', { name: 'Top rank' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'My rank' })).toHaveCount(0);
});

test('loading, empty and error states', async ({ page }) => {
  let answer: 'empty' | 'error' = 'empty';
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/leaderboard\?/, async (route) => {
    await held;
    if (answer === 'error') return route.fulfill({ status: 500, json: { error: 'Something went wrong.' } });
    return route.fulfill({ json: { leaderboard: [], totalItems: 0 } });
  });
  await page.goto('/leaderboard');
  await expect(page.getByRole('status', { name: 'Loading the leaderboard' })).toBeVisible();
  release();
  await expect(page.getByText('No data available yet.')).toBeVisible();

  answer = 'error';
  await page.goto('/leaderboard?page=3');
  await expect(page.getByText('The leaderboard could not be loaded.')).toBeVisible();
  answer = 'empty';
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('No data available yet.')).toBeVisible();
});
