import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { normalisationGain, peakLevel } from '../packages/shared/src/domain/loudness.ts';
import { expect, signUpViaApi, test } from './fixtures.ts';

/**
 * The player's comforts: sleep timer, keyboard shortcuts, loudness normalisation, the wake-up button,
 * gapless playback and the waveform seek bar.
 */

async function demoFile(
  request: APIRequestContext,
  name: string,
): Promise<{ id: number; uuid: string; hapticsURL: string | null }> {
  const res = await request.get('/api/files', { params: { nameQuery: name, pageSize: 50 } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
  expect(file, `demo file ${name}`).toBeTruthy();
  return file;
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Audio player' });
}

/** The main audio element's state. It is made when something first plays: until then nothing plays. */
function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.getElementById('mesmer-audio') as HTMLAudioElement | null;
    if (!audio) return { currentTime: 0, duration: Number.NaN, paused: true, volume: 1, gain: null };
    return {
      currentTime: audio.currentTime,
      duration: audio.duration,
      paused: audio.paused,
      volume: audio.volume,
      gain: audio.dataset.gain === undefined ? null : Number(audio.dataset.gain),
    };
  });
}

/** The demo library is analysed in the background after the server starts: waits for a file's waveform. */
async function analysedWaveform(
  request: APIRequestContext,
  fileId: number,
): Promise<{ peaks: number[]; loudness: number | null }> {
  let waveform: { peaks: number[]; loudness: number | null } = { peaks: [], loudness: null };
  await expect
    .poll(
      async () => {
        waveform = await (await request.get('/api/files/waveform', { params: { id: fileId } })).json();
        return waveform.loudness;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
  return waveform;
}

/** Opens a demo file's page and plays it from the page's Play button. */
async function playFile(page: Page, name: string) {
  await page.goto(`/file/${(await demoFile(page.request, name)).uuid}`);
  await page.getByRole('main').getByRole('button', { name: /^Play/ }).first().click();
  await expect(playerBar(page).getByRole('link', { name })).toBeVisible();
  await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  await expect.poll(async () => (await audioState(page)).duration).toBeGreaterThan(0);
}

test('the sleep timer at the end of the track fades out, then stops', async ({ page }) => {
  await playFile(page, 'Ocean Breath');
  const bar = playerBar(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('s');
  const panel = page.getByRole('dialog', { name: 'Sleep timer' });
  await panel.getByRole('radio', { name: 'End of track' }).check();
  await expect(bar.getByRole('button', { name: 'Sleep timer: At the end of this track' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.keyboard.press('Escape');

  const { duration } = await audioState(page);
  await bar.getByRole('slider', { name: 'Seek' }).fill(String(duration - 6));
  // Six seconds before the end of a 10 s fade: the level is down to about 0.6 and falling.
  await expect.poll(async () => (await audioState(page)).volume).toBeLessThan(0.65);
  await expect.poll(async () => (await audioState(page)).volume).toBeLessThan(0.3);
  expect((await audioState(page)).paused).toBe(false);

  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 10_000 });
  const after = await audioState(page);
  expect(after.paused).toBe(true);
  expect(after.volume).toBe(1);
  await expect(bar.getByRole('button', { name: 'Sleep timer: Off' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
});

test('a 15-minute sleep timer fades out over 10 s and pauses', async ({ page }) => {
  await page.clock.install();
  await playFile(page, 'Still Water');
  const bar = playerBar(page);
  await bar.getByRole('button', { name: 'Sleep timer: Off' }).click();
  await page.getByRole('dialog', { name: 'Sleep timer' }).getByRole('radio', { name: '15 minutes' }).check();
  await expect(bar.getByRole('button', { name: 'Sleep timer: 15:00 left' })).toBeVisible();

  await page.clock.fastForward(15 * 60_000 - 5000);
  await page.clock.runFor(500);
  const fading = await audioState(page);
  expect(fading.volume).toBeGreaterThan(0.3);
  expect(fading.volume).toBeLessThan(0.7);
  expect(fading.paused).toBe(false);

  await page.clock.runFor(5000);
  await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
  expect(await audioState(page)).toMatchObject({ paused: true, volume: 1 });
});

test('keyboard shortcuts: ? lists them, M mutes, arrows set the volume', async ({ page }) => {
  await playFile(page, 'Ocean Breath');
  const bar = playerBar(page);
  await page.locator('body').click({ position: { x: 5, y: 5 } });

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const label of ['Play or pause', 'Back 10 seconds', 'Volume up', 'Mute or unmute', 'Sleep timer']) {
    await expect(help.getByText(label)).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  await page.keyboard.press('m');
  await expect(bar.getByRole('button', { name: 'Volume: 0' })).toBeVisible();
  expect((await audioState(page)).volume).toBe(0);
  await page.keyboard.press('M');
  await expect(bar.getByRole('button', { name: 'Volume: 100' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(bar.getByRole('button', { name: 'Volume: 90' })).toBeVisible();
  await expect.poll(async () => (await audioState(page)).volume).toBeCloseTo(0.9);
});

test('loudness normalisation sets the gain on the audio graph, and the switch turns it off', async ({
  page,
}) => {
  const file = await demoFile(page.request, 'Ocean Breath');
  const waveform = await analysedWaveform(page.request, file.id);
  const expected = normalisationGain(waveform.loudness, peakLevel(waveform.peaks));

  await playFile(page, 'Ocean Breath');
  await expect.poll(async () => (await audioState(page)).gain).toBeCloseTo(expected, 5);
  const bar = playerBar(page);
  await bar.getByRole('button', { name: /^Volume: / }).click();
  const normalise = page.getByRole('switch', { name: 'Normalise loudness' });
  await expect(normalise).toHaveAttribute('aria-checked', 'true');
  await normalise.click();
  await expect.poll(async () => (await audioState(page)).gain).toBe(1);

  await page.reload();
  await bar.getByRole('button', { name: /^Volume: / }).click();
  await expect(page.getByRole('switch', { name: 'Normalise loudness' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
});

test('the wake-up button fades the track out and plays an awakener', async ({ page }) => {
  await playFile(page, 'Still Water');
  const bar = playerBar(page);
  await bar.getByRole('button', { name: 'Wake up' }).click();
  await expect(bar.getByRole('button', { name: 'Waking…' })).toBeDisabled();
  await expect.poll(async () => (await audioState(page)).volume).toBeLessThan(0.8);
  await expect(bar.getByRole('link', { name: /wake/i })).toBeVisible({ timeout: 8000 });
  await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  expect((await audioState(page)).volume).toBe(1);
});

test('gapless: the next track of a playlist is preloaded and starts as the first ends', async ({ page }) => {
  await signUpViaApi(page, 'gapless');
  const tracks = [await demoFile(page.request, 'Focus Pulse'), await demoFile(page.request, 'Wide Awake')];
  const gains: number[] = [];
  for (const track of tracks) {
    const waveform = await analysedWaveform(page.request, track.id);
    gains.push(normalisationGain(waveform.loudness, peakLevel(waveform.peaks)));
  }
  const created = await (
    await page.request.post('/api/playlists', { data: { name: 'Two in a row', expLevel: 1 } })
  ).json();
  const saved = await page.request.put('/api/playlists', {
    data: { id: created.id, fileIds: tracks.map((t) => t.id) },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.goto(`/playlist/${created.uuid}`);

  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
  const bar = playerBar(page);
  await expect(bar.getByRole('link', { name: 'Focus Pulse' })).toBeVisible();
  await expect.poll(async () => (await audioState(page)).duration).toBeGreaterThan(0);
  // Watches both of the player's elements (made when the first track loaded): what the spare one
  // holds, and what it does around the end.
  await page.evaluate(() => {
    const [first, second] = [...document.querySelectorAll('audio')] as HTMLAudioElement[];
    const log = {
      firstEnded: false,
      /** The second element at the first one's last report before its end. */
      beforeEnd: null as null | { src: string; readyState: number; paused: boolean },
      /** And once the player handled the end (the listeners before this one). */
      atEnd: null as null | { paused: boolean },
      secondPlaying: false,
      /** Loads the second element started after the first ended (a switch without one is gapless). */
      loadsAfterEnd: 0,
    };
    (window as unknown as { gapless: typeof log }).gapless = log;
    first.addEventListener('timeupdate', () => {
      if (!log.firstEnded) {
        log.beforeEnd = { src: second.src, readyState: second.readyState, paused: second.paused };
      }
    });
    first.addEventListener('ended', () => {
      log.firstEnded = true;
      log.atEnd = { paused: second.paused };
    });
    second.addEventListener('loadstart', () => {
      if (log.firstEnded) log.loadsAfterEnd += 1;
    });
    second.addEventListener('playing', () => {
      log.secondPlaying = true;
    });
  });
  const firstSrc = await page.evaluate(
    () => (document.getElementById('mesmer-audio') as HTMLAudioElement).src,
  );
  // Four seconds before the end: well inside the preload window.
  await bar.getByRole('slider', { name: 'Seek' }).fill('8');
  await expect(bar.getByRole('link', { name: 'Wide Awake' })).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(() =>
      page.evaluate(
        () => (window as unknown as { gapless: { secondPlaying: boolean } }).gapless.secondPlaying,
      ),
    )
    .toBe(true);

  const log = (await page.evaluate(() => (window as unknown as { gapless: unknown }).gapless)) as {
    beforeEnd: { src: string; readyState: number; paused: boolean };
    atEnd: { paused: boolean };
    loadsAfterEnd: number;
  };
  // Preloaded under its own listening session before the first ended, with enough audio to play on.
  expect(log.beforeEnd.src).toMatch(/[?&]session=[\w-]{43}$/);
  expect(new URL(log.beforeEnd.src).searchParams.get('session')).not.toBe(
    new URL(firstSrc).searchParams.get('session'),
  );
  expect(log.beforeEnd.readyState).toBeGreaterThanOrEqual(3);
  expect(log.beforeEnd.paused).toBe(true);
  // Started in the same task as the first one's end, from what it had preloaded: no new load.
  expect(log.atEnd.paused).toBe(false);
  expect(log.loadsAfterEnd).toBe(0);

  // Both go through the audio graph, each with its own track's normalisation gain.
  const graph = await page.evaluate(() =>
    [...document.querySelectorAll('audio')].map((a) => ({ id: a.id, gain: Number(a.dataset.gain) })),
  );
  expect(graph[0].id).toBe('mesmer-audio-next');
  expect(graph[1].id).toBe('mesmer-audio');
  expect(graph[0].gain).toBeCloseTo(gains[0], 5);
  expect(graph[1].gain).toBeCloseTo(gains[1], 5);
  expect((await audioState(page)).paused).toBe(false);
});

test('waveform: the seek bar draws the peaks and haptic cues, and a click seeks', async ({ page }) => {
  const file = await demoFile(page.request, 'Drifting Down');
  const { peaks } = await analysedWaveform(page.request, file.id);
  expect(peaks.length).toBeGreaterThan(0);
  expect(file.hapticsURL).toBeTruthy();
  const cues = (await (await page.request.get(file.hapticsURL ?? '')).json()) as unknown[];
  expect(cues.length).toBeGreaterThan(0);

  await playFile(page, 'Drifting Down');
  const bar = playerBar(page);
  await bar.getByRole('button', { name: 'Pause' }).click();
  const waveform = bar.getByTestId('seek-waveform');
  await expect(waveform).toBeVisible();
  expect(Number(await waveform.getAttribute('data-bars'))).toBeGreaterThan(50);
  await expect(bar.getByTestId('haptic-cue')).toHaveCount(cues.length);

  const slider = bar.getByRole('slider', { name: 'Seek' });
  const box = (await slider.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const { duration } = await audioState(page);
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(duration / 2 - 1);
  expect((await audioState(page)).currentTime).toBeLessThan(duration / 2 + 1);
  await expect(slider).toHaveAttribute('aria-valuetext', /^00:2[123] of 00:45$/);

  await test.step('the bar with the waveform has no serious axe violation, in either theme', async () => {
    for (const light of ['true', 'false']) {
      await page.evaluate((value) => localStorage.setItem('light', value), light);
      await page.reload();
      await expect(bar.getByTestId('seek-waveform')).toBeVisible();
      await expect(bar.getByTestId('haptic-cue')).toHaveCount(cues.length);
      const { violations } = await new AxeBuilder({ page }).include('[aria-label="Audio player"]').analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });

  await test.step('the arrow keys move it 5 s, Home goes to the start', async () => {
    const before = (await audioState(page)).currentTime;
    await slider.press('ArrowRight');
    await expect.poll(async () => (await audioState(page)).currentTime).toBeCloseTo(before + 5, 0);
    await slider.press('Home');
    await expect(bar.getByTestId('player-elapsed')).toHaveText('00:00');
  });
});
