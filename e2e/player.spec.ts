import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, signUpViaApi, test } from './fixtures.ts';

/** Journeys through the audio player with the demo library's real (generated) audio. */

async function playlistUuid(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get('/api/playlists', {
    params: { searchQuery: name, simple: 'true', pageSize: 50 },
  });
  const playlist = (await res.json()).playlists.find((p: { name: string }) => p.name === name);
  expect(playlist, `demo playlist ${name}`).toBeTruthy();
  return playlist.uuid;
}

async function demoFile(
  request: APIRequestContext,
  name: string,
): Promise<{ uuid: string; audioURL: string }> {
  const res = await request.get('/api/files', { params: { nameQuery: name, pageSize: 50 } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
  expect(file, `demo file ${name}`).toBeTruthy();
  return file;
}

async function fileUuid(request: APIRequestContext, name: string): Promise<string> {
  return (await demoFile(request, name)).uuid;
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Audio player' });
}

/** Seconds shown in the bar as elapsed (or, with 'player-total', the track's length). */
async function elapsedSeconds(bar: Locator, testId = 'player-elapsed'): Promise<number> {
  const text = (await bar.getByTestId(testId).textContent()) ?? '';
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** The main audio element's state. It is made when something first plays: until then nothing plays. */
function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.getElementById('mesmer-audio') as HTMLAudioElement | null;
    if (!audio) return { currentTime: 0, duration: Number.NaN, paused: true, playbackRate: 1, volume: 1 };
    return {
      currentTime: audio.currentTime,
      duration: audio.duration,
      paused: audio.paused,
      playbackRate: audio.playbackRate,
      volume: audio.volume,
    };
  });
}

/** Moves the playhead to `secondsBeforeEnd` before the end of the current track with the seek bar. */
async function seekNearEnd(page: Page, secondsBeforeEnd = 0.6) {
  const bar = playerBar(page);
  // The bar names a new track at once; the element still holds the last one until it loads the new
  // one, and two demo tracks are both 30 s long: wait for the element to hold the bar's track.
  const name = (await bar.locator('a[href^="/file/"]').first().getAttribute('title')) ?? '';
  const audioPath = new URL((await demoFile(page.request, name)).audioURL, 'http://localhost').pathname;
  await expect
    .poll(
      () =>
        page.evaluate((path) => {
          const audio = document.getElementById('mesmer-audio') as HTMLAudioElement | null;
          return !!audio?.src && new URL(audio.src).pathname === path && audio.readyState >= 1;
        }, audioPath),
      { timeout: 10_000 },
    )
    .toBe(true);
  const { duration } = await audioState(page);
  await bar.getByRole('slider', { name: 'Seek' }).fill(String(duration - secondsBeforeEnd));
}

async function playPlaylist(page: Page, name: string) {
  await page.goto(`/playlist/${await playlistUuid(page.request, name)}`);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
}

/** Opens a demo training plan's page; answers the plan and its list of days. */
async function openPlan(page: Page, name: string) {
  const plans = (await (await page.request.get('/api/series')).json()).series as {
    uuid: string;
    name: string;
  }[];
  const plan = plans.find((p) => p.name === name)!;
  await page.goto(`/plan/${plan.uuid}`);
  return { plan, days: page.getByRole('list', { name: 'Days' }) };
}

/** Plays day 1 of the open demo plan (Ocean Breath, Deeper Still, Gentle Return) to the end of each track. */
async function playThroughFirstDay(page: Page) {
  await page.getByRole('button', { name: 'Play day 1' }).click();
  const bar = playerBar(page);
  for (const name of ['Ocean Breath', 'Deeper Still', 'Gentle Return']) {
    await expect(bar.getByRole('link', { name })).toBeVisible();
    await seekNearEnd(page);
  }
  await expect(page.getByText('Day complete!')).toBeVisible();
}

test('play a playlist: time runs, pause, seek, next and previous', async ({ page }) => {
  const bar = playerBar(page);
  await playPlaylist(page, 'First Steps');

  await test.step('the bar shows the first track and its time runs', async () => {
    await expect(bar.getByRole('link', { name: 'Ocean Breath' })).toHaveAttribute('href', /^\/file\//);
    await expect(bar.getByRole('link', { name: 'mesmer' })).toHaveAttribute('href', '/user/mesmer');
    await expect(bar.getByTestId('player-total')).toHaveText('00:30');
    await expect.poll(() => elapsedSeconds(bar), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const height = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--player-h'),
    );
    expect(Number.parseFloat(height)).toBeGreaterThan(40);
    const media = await page.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
      album: navigator.mediaSession.metadata?.album,
      state: navigator.mediaSession.playbackState,
    }));
    expect(media).toEqual({
      title: 'Ocean Breath',
      artist: 'mesmer',
      album: 'First Steps',
      state: 'playing',
    });
  });

  await test.step('pause stops the time', async () => {
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
    const stopped = await elapsedSeconds(bar);
    await page.waitForTimeout(1200);
    expect(await elapsedSeconds(bar)).toBe(stopped);
    expect((await audioState(page)).paused).toBe(true);
  });

  await test.step('the seek bar and the arrow keys move the playhead', async () => {
    await bar.getByRole('slider', { name: 'Seek' }).fill('20');
    await expect(bar.getByTestId('player-elapsed')).toHaveText('00:20');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowLeft');
    await expect(bar.getByTestId('player-elapsed')).toHaveText('00:10');
    await page.keyboard.press('ArrowRight');
    await expect(bar.getByTestId('player-elapsed')).toHaveText('00:20');
    await page.keyboard.press('Space');
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(() => elapsedSeconds(bar)).toBeGreaterThanOrEqual(21);
  });

  await test.step('next and previous', async () => {
    await expect(bar.getByRole('button', { name: 'Previous track' })).toBeDisabled();
    await bar.getByRole('button', { name: 'Next track' }).click();
    await expect(bar.getByRole('link', { name: 'Deeper Still' })).toBeVisible();
    // From its start (the first track was past 21 s): the time may show the old track's for a moment,
    // and a slow machine a second already played.
    await expect.poll(() => elapsedSeconds(bar)).toBeLessThanOrEqual(2);
    await expect.poll(() => elapsedSeconds(bar)).toBeGreaterThanOrEqual(1);
    await bar.getByRole('button', { name: 'Previous track' }).click();
    await expect(bar.getByRole('link', { name: 'Ocean Breath' })).toBeVisible();
  });

  await test.step('a track that ends goes on to the next', async () => {
    await seekNearEnd(page);
    await expect(bar.getByRole('link', { name: 'Deeper Still' })).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  });
});

test('loop a track a number of times, then the queue ends', async ({ page }) => {
  const bar = playerBar(page);
  await page.goto(`/file/${await fileUuid(page.request, 'Soft Spiral Loop')}`);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  await expect(bar.getByRole('link', { name: 'Soft Spiral Loop' })).toBeVisible();

  await bar.getByRole('button', { name: 'Loop: Off' }).click();
  const loop = page.getByRole('dialog', { name: 'Loop' });
  await loop.getByRole('radio', { name: 'Current track' }).check();
  await loop.getByLabel('Loop count').fill('2');
  await loop.getByLabel('Loop count').press('Enter');
  await expect(loop.getByText('Track repeated 0 of 2 times')).toBeVisible();

  await seekNearEnd(page);
  await expect(loop.getByText('Track repeated 1 of 2 times')).toBeVisible();
  await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  await seekNearEnd(page);
  await expect(loop.getByText('Track repeated 2 of 2 times')).toBeVisible();
  await seekNearEnd(page);
  // Repeated twice: the third end finishes the one-track queue.
  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(loop.getByText('Track repeated 0 of 2 times')).toBeVisible();

  await test.step('an invalid count becomes unlimited', async () => {
    await loop.getByLabel('Loop count').fill('abc');
    await loop.getByLabel('Loop count').press('Enter');
    await expect(loop.getByLabel('Loop count')).toHaveValue('');
    await expect(loop.getByText('Track repeated 0 of unlimited times')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(loop).toBeHidden();
    await expect(bar.getByRole('button', { name: 'Loop: Current track' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});

test('shuffle picks another track of the playlist and is remembered', async ({ page }) => {
  const bar = playerBar(page);
  const names = ['Ocean Breath', 'Deeper Still', 'Calm Confidence', 'Gentle Return'];
  await playPlaylist(page, 'First Steps');
  await expect(bar.getByRole('link', { name: 'Ocean Breath' })).toBeVisible();
  const shuffle = bar.getByRole('button', { name: 'Shuffle' });
  await shuffle.click();
  await expect(shuffle).toHaveAttribute('aria-pressed', 'true');

  const played = ['Ocean Breath'];
  for (let i = 0; i < 3; i++) {
    await bar.getByRole('button', { name: 'Next track' }).click();
    await expect(bar.getByRole('link', { name: played.at(-1)!, exact: true })).toHaveCount(0);
    const name = (await bar.getByRole('link').first().textContent()) ?? '';
    expect(names).toContain(name);
    played.push(name);
  }
  // One pass plays every track once.
  expect(new Set(played).size).toBe(4);
  await expect(bar.getByRole('button', { name: 'Next track' })).toBeDisabled();

  await page.reload();
  await expect(playerBar(page).getByRole('button', { name: 'Shuffle' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
});

test('speed and volume change the audio and are remembered', async ({ page }) => {
  const bar = playerBar(page);
  await playPlaylist(page, 'First Steps');
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();

  await bar.getByRole('button', { name: 'Speed: 100%' }).click();
  const speed = page.getByRole('dialog', { name: 'Speed' });
  await speed.getByRole('slider', { name: 'Speed' }).fill('150');
  await expect(speed.getByText('150%')).toBeVisible();
  await expect.poll(async () => (await audioState(page)).playbackRate).toBe(1.5);
  await page.keyboard.press('Escape');

  await bar.getByRole('button', { name: 'Volume: 100' }).click();
  const volume = page.getByRole('dialog', { name: 'Volume' });
  await volume.getByRole('slider', { name: 'Volume' }).fill('40');
  await expect.poll(async () => (await audioState(page)).volume).toBeCloseTo(0.4);
  await page.keyboard.press('Escape');

  await test.step('speed steps by 10 % from 10 % to 200 %', async () => {
    await bar.getByRole('button', { name: 'Speed: 150%' }).click();
    const slider = speed.getByRole('slider', { name: 'Speed' });
    await expect(slider).toHaveAttribute('min', '10');
    await expect(slider).toHaveAttribute('max', '200');
    await expect(slider).toHaveAttribute('step', '10');
    await page.keyboard.press('Escape');
  });

  await page.reload();
  const after = playerBar(page);
  await expect(after.getByRole('button', { name: 'Speed: 150%' })).toBeVisible();
  await expect(after.getByRole('button', { name: 'Volume: 40' })).toBeVisible();
  await after.getByRole('button', { name: 'Play' }).click();
  await expect.poll(async () => (await audioState(page)).playbackRate).toBe(1.5);
  expect((await audioState(page)).volume).toBeCloseTo(0.4);
});

test('a reload resumes the queue paused where it was', async ({ page }) => {
  const bar = playerBar(page);
  await playPlaylist(page, 'First Steps');
  await bar.getByRole('button', { name: 'Next track' }).click();
  await expect(bar.getByRole('link', { name: 'Deeper Still' })).toBeVisible();
  // Paused first, then moved: a track left playing can pass 18 s before a pause lands on a slow machine.
  await bar.getByRole('button', { name: 'Pause' }).click();
  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
  await bar.getByRole('slider', { name: 'Seek' }).fill('17');
  await expect(bar.getByTestId('player-elapsed')).toHaveText('00:17');

  await page.reload();
  const after = playerBar(page);
  await expect(after.getByRole('link', { name: 'Deeper Still' })).toBeVisible();
  await expect(after.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(after.getByTestId('player-elapsed')).toHaveText('00:17');
  // The whole second shown: a slow machine plays on a little past 17 before the pause lands.
  await expect.poll(async () => Math.floor((await audioState(page)).currentTime)).toBe(17);

  await after.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => elapsedSeconds(after)).toBeGreaterThanOrEqual(18);
  await after.getByRole('button', { name: 'Previous track' }).click();
  await expect(after.getByRole('link', { name: 'Ocean Breath' })).toBeVisible();
});

test('an expired audio URL is fetched again and playback goes on', async ({ page }) => {
  const bar = playerBar(page);
  await playPlaylist(page, 'First Steps');
  await expect(bar.getByRole('button', { name: 'Pause' })).toBeVisible();
  // The element is made once the listening session's token is in (after the bar shows Pause).
  await expect(page.locator('#mesmer-audio')).toHaveAttribute('src', /[?&]session=/);
  // Break the signed URL the way an expired one fails (403), then seek so the browser asks again.
  await page.evaluate(() => {
    const audio = document.getElementById('mesmer-audio') as HTMLAudioElement;
    audio.src = `${audio.src.split('?')[0]}?expires=1&signature=expired`;
    audio.play().catch(() => undefined);
  });
  await expect.poll(() => elapsedSeconds(bar), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  await expect(bar.getByRole('link', { name: 'Ocean Breath' })).toBeVisible();
});

test("finishing a training plan's day unlocks the next", async ({ page }) => {
  await signUpViaApi(page, 'plan');
  const { plan, days } = await openPlan(page, 'Relaxation Basics');
  await expect(days.getByText('Complete the above stages to unlock!')).toHaveCount(2);

  await playThroughFirstDay(page);
  await expect(playerBar(page).getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(days.getByText('Complete the above stages to unlock!')).toHaveCount(1);
  const saved = await (await page.request.get('/api/series', { params: { uuid: plan.uuid } })).json();
  expect(saved.series.position).toBe(2);

  await page.reload();
  await expect(days.getByText('Complete the above stages to unlock!')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Play day 2' })).toBeEnabled();
});

test('listening earns points that show on the home page', async ({ page }) => {
  test.setTimeout(120_000);
  const account = await signUpViaApi(page, 'points');
  await page.goto('/');
  await expect(page.getByTestId('progress-points')).toHaveText('0');
  await expect(page.getByTestId('progress-level')).toHaveText('0');

  // A 2.5-minute track, of which the last 95 s are played at double speed (about 48 s).
  await page.goto(`/file/${await fileUuid(page.request, 'Still Water')}`);
  const bar = playerBar(page);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  await bar.getByRole('button', { name: 'Speed: 100%' }).click();
  await page.getByRole('dialog', { name: 'Speed' }).getByRole('slider', { name: 'Speed' }).fill('200');
  await page.keyboard.press('Escape');
  await bar.getByRole('slider', { name: 'Seek' }).fill('55');
  // The track loads under its listening session: the server credits only the audio it served under it.
  const audioSrc = await page.evaluate(
    () => (document.getElementById('mesmer-audio') as HTMLAudioElement).src,
  );
  expect(audioSrc).toMatch(/[?&]session=[\w-]{43}$/);
  // The session starts when the track loads; then move the server's clock past a minute (test servers
  // only), so the wall-clock cap allows the minute the player is about to play at double speed.
  await expect.poll(() => elapsedSeconds(bar)).toBeGreaterThanOrEqual(56);
  const clock = await page.request.post('/api/test/clock', { data: { advanceMs: 120_000 } });
  expect(clock.status()).toBe(200);

  const ended = page.waitForResponse(
    (r) => r.url().endsWith('/api/session') && r.request().postDataJSON()?.sessionToken !== undefined,
    { timeout: 70_000 },
  );
  const result = await (await ended).json();
  expect(result).toMatchObject({ points: 1, totalPoints: 1, streak: 1 });

  await page.getByRole('link', { name: 'Mesmer home' }).click();
  await expect(page.getByTestId('progress-points')).toHaveText('1');
  await expect(page.getByTestId('progress-level')).toHaveText('0');
  await expect(page.getByText('1 / 51 points to level 1')).toBeVisible();

  await page.goto('/leaderboard');
  await page.getByRole('button', { name: 'My rank' }).click();
  await expect(page.getByRole('row', { name: new RegExp(account.username) })).toHaveAttribute(
    'aria-current',
    'true',
  );
});

test('points earned from five 12-second tracks', async ({ page }) => {
  test.setTimeout(150_000);
  await signUpViaApi(page, 'short');
  const names = ['Focus Pulse', 'Heartbeat Loop', 'Wide Awake', 'Velvet Loop', 'Velvet Wake'];
  const ids: number[] = [];
  for (const name of names) {
    const res = await page.request.get('/api/files', { params: { nameQuery: name, pageSize: 50 } });
    const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
    expect(file.duration, name).toBe(12_000);
    ids.push(file.id);
  }
  const created = await (
    await page.request.post('/api/playlists', { data: { name: 'Five short ones', expLevel: 1 } })
  ).json();
  const saved = await page.request.put('/api/playlists', { data: { id: created.id, fileIds: ids } });
  expect(saved.status(), await saved.text()).toBe(200);

  const ends: { points: number; totalPoints: number }[] = [];
  page.on('response', async (r) => {
    if (r.url().endsWith('/api/session') && r.request().postDataJSON()?.sessionToken !== undefined) {
      ends.push(await r.json());
    }
  });
  await page.goto(`/playlist/${created.uuid}`);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  const bar = playerBar(page);
  for (const name of names) {
    await expect(bar.getByRole('link', { name, exact: true })).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => elapsedSeconds(bar)).toBeGreaterThanOrEqual(2);
    // Each track starts as the one before ends, so the server's wall-clock cap is a few milliseconds
    // either side of 12 s; moving its clock on (test servers only) leaves the tracks' own 12 s to count.
    const clock = await page.request.post('/api/test/clock', { data: { advanceMs: 3000 } });
    expect(clock.status()).toBe(200);
  }
  // Played through: 60 s, carried over from track to track, make the point with the fifth.
  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => ends.length).toBe(5);
  expect(ends.map((e) => e.points)).toEqual([0, 0, 0, 0, 1]);

  await page.getByRole('link', { name: 'Mesmer home' }).click();
  await expect(page.getByTestId('progress-points')).toHaveText('1');
});

test("a visitor's finished day unlocks the next in this browser", async ({ page }) => {
  const { days } = await openPlan(page, 'Trigger Foundations');
  await expect(days.getByText('Complete the above stages to unlock!')).toHaveCount(3);

  await playThroughFirstDay(page);
  await expect(days.getByText('Complete the above stages to unlock!')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Play day 2' })).toBeEnabled();
});
