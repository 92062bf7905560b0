import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { normalisationGain, peakLevel } from '../packages/shared/src/domain/loudness.ts';
import { expect, test } from './fixtures.ts';

/** Issue 17 item 4: sleep timer, keyboard shortcuts, loudness normalisation and the wake-up button. */

async function demoFile(request: APIRequestContext, name: string): Promise<{ id: number; uuid: string }> {
  const res = await request.get('/api/files', { params: { nameQuery: name, pageSize: 50 } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === name);
  expect(file, `demo file ${name}`).toBeTruthy();
  return file;
}

function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Audio player' });
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.getElementById('mesmer-audio') as HTMLAudioElement;
    return {
      currentTime: audio.currentTime,
      duration: audio.duration,
      paused: audio.paused,
      volume: audio.volume,
      gain: audio.dataset.gain === undefined ? null : Number(audio.dataset.gain),
    };
  });
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
  // The demo library is analysed in the background after the server starts.
  let waveform: { peaks: number[]; loudness: number | null } = { peaks: [], loudness: null };
  await expect
    .poll(
      async () => {
        waveform = await (await page.request.get('/api/files/waveform', { params: { id: file.id } })).json();
        return waveform.loudness;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
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
