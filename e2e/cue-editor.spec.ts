import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  FAKE_VIBRATOR_NAME,
  type FakeButtplug,
  startFakeButtplug,
} from '../packages/server/src/test/fakes/buttplug.ts';
import { vibrationLevel } from '../packages/shared/src/domain/haptic-cues.ts';
import { AGE_CONFIRMED_KEY, expect, signUpViaApi, test } from './fixtures.ts';
import { FAKE_BUTTPLUG_PORT } from './playwright.config.ts';

/**
 * The haptic cue editor: a creator records cues while the file plays, adjusts one, saves, and a
 * listener's toy (a fake Intiface Central on this machine) is told exactly those cues in playback.
 * 'Low Hum' (sonicmist's, 20 s, no haptics in the demo library) is used by no other journey.
 */

// Its own port: intiface.spec.ts may run its fake at the same time (it uses +0 and +1).
const FAKE_PORT = FAKE_BUTTPLUG_PORT + 3;
let fake: FakeButtplug;
test.beforeAll(async () => {
  fake = await startFakeButtplug({ port: FAKE_PORT, maxPingTime: 2000 });
});
test.afterAll(async () => {
  await fake.close();
});

interface Cue {
  time: number;
  stopTime: number;
  strength: number;
}

const audioMs = (page: Page) =>
  page.evaluate(
    () => (document.getElementById('mesmer-audio') as HTMLAudioElement | null)?.currentTime ?? 0,
  ) as Promise<number>;

async function lowHum(page: Page): Promise<{ id: number; uuid: string }> {
  const found = await page.request.get('/api/files', { params: { nameQuery: 'Low Hum' } });
  const file = (
    (await found.json()).files as { id: number; uuid: string; name: string; hasHaptics: boolean }[]
  ).find((f) => f.name === 'Low Hum');
  expect(file?.hasHaptics).toBe(false);
  return { id: file?.id ?? 0, uuid: file?.uuid ?? '' };
}

test('a creator records cues while listening, adjusts one, saves; a listener’s toy plays exactly those', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const login = await page.request.post('/api/token', {
    data: { user: 'sonicmist', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const file = await lowHum(page);
  const announcer = page.getByTestId('cue-announcer');
  const editor = page.getByRole('region', { name: 'Haptic cue editor' });

  await test.step('the editor opens in edit mode, with the waveform and an empty lane', async () => {
    await page.goto(`/file/${file.uuid}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Open the haptic cue editor' }).click();
    await expect(editor.getByText('No cues yet: draw one on the lane below, or record.')).toBeVisible();
    await expect(editor.getByTestId('cue-timeline')).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('section[aria-labelledby]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  await test.step('record: hold R twice while it plays, the second time at strength 8', async () => {
    await editor.getByRole('button', { name: 'Record', exact: true }).click();
    await expect(editor.getByRole('button', { name: 'Stop recording' })).toBeVisible();
    await expect.poll(() => audioMs(page), { timeout: 15_000 }).toBeGreaterThan(1);
    await page.keyboard.down('r');
    await page.waitForTimeout(900);
    await page.keyboard.up('r');
    await page.waitForTimeout(700);
    await page.keyboard.press('8');
    await page.keyboard.down('r');
    await page.waitForTimeout(700);
    await page.keyboard.up('r');
    await page.waitForTimeout(300);
    await editor.getByRole('button', { name: 'Stop recording' }).click();
    await expect(announcer).toHaveText('Recorded 2 cues');
    await expect(editor.getByText('Unsaved changes')).toBeVisible();
  });

  await test.step('adjust the first cue: select it by keyboard and type its strength', async () => {
    await editor.getByTestId('cue-timeline').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expect(announcer).toHaveText(/^Cue 1 of 2: .*, strength 50%$/);
    const strength = editor.getByLabel('Strength (%)');
    await strength.fill('30');
    await strength.press('Enter');
    await expect(announcer).toHaveText('Strength 30% for 1 cue');
  });

  let saved: Cue[] = [];
  await test.step('save: stored as the file’s haptics', async () => {
    await editor.getByRole('button', { name: 'Save cues' }).click();
    await expect(page.getByText('Cues saved.')).toBeVisible();
    await expect(editor.getByText('All changes saved.')).toBeVisible();
    const stored = await (await page.request.get('/api/files/cues', { params: { fileId: file.id } })).json();
    saved = stored.cues;
    expect(stored.revision).toBe(1);
    expect(saved.map((c) => c.strength)).toEqual([0.3, 0.8]);
    // Held about 900 and 700 ms, apart by about 700 ms.
    expect(saved[0].stopTime - saved[0].time).toBeGreaterThan(600);
    expect(saved[1].stopTime - saved[1].time).toBeGreaterThan(400);
    expect(saved[1].time).toBeGreaterThan(saved[0].stopTime + 300);
    expect(saved[0].time).toBeGreaterThanOrEqual(900);
  });

  await test.step('a listener’s toy is told exactly those cues during playback', async () => {
    // Someone else, in their own browser.
    const context = await browser.newContext();
    const listener = await context.newPage();
    await listener.addInitScript((key) => localStorage.setItem(key, 'true'), AGE_CONFIRMED_KEY);
    await signUpViaApi(listener, 'cuelistener');
    const user = (await (await listener.request.get('/api/user')).json()).user as {
      lovenseSettings: { maxVibration: number };
    };
    const speed = (strength: number) => vibrationLevel(strength, user.lovenseSettings.maxVibration) / 20;
    await listener.goto('/account');
    await listener.getByRole('radio', { name: /Intiface Central/ }).check();
    await listener.getByRole('textbox', { name: 'Intiface Central address' }).fill(fake.url);
    await listener.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(listener.getByText('Connected to Intiface Central.')).toBeVisible();
    await listener.getByRole('button', { name: 'Scan for toys' }).click();
    await expect(listener.getByRole('list', { name: 'Toys' }).getByText(FAKE_VIBRATOR_NAME)).toBeVisible();
    fake.clear();

    // Reached in the app: a page load would end the toy's connection, as it would for a listener.
    await listener.evaluate((uuid) => {
      history.pushState(null, '', `/file/${uuid}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, file.uuid);
    await listener.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
    await expect
      .poll(() => fake.summary(), { timeout: 20_000 })
      .toEqual([`vibrate ${speed(0.3)}`, 'stop', `vibrate ${speed(0.8)}`, 'stop']);
    // Each command came when its cue starts and stops (within a poll or two of the player's clock).
    const [on1, off1, on2, off2] = fake.commands.map((c) => c.at);
    expect(off1 - on1).toBeGreaterThan(saved[0].stopTime - saved[0].time - 150);
    expect(off1 - on1).toBeLessThan(saved[0].stopTime - saved[0].time + 150);
    expect(on2 - on1).toBeGreaterThan(saved[1].time - saved[0].time - 150);
    expect(off2 - on2).toBeLessThan(saved[1].stopTime - saved[1].time + 150);
    await context.close();
  });
});

test('the cue editor on a phone in the dark theme: select, strength, delete by keyboard', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const login = await page.request.post('/api/token', {
    data: { user: 'sonicmist', password: 'demo-password', timezone: 'UTC' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const found = await page.request.get('/api/files', { params: { nameQuery: 'Neon Rain' } });
  const file = ((await found.json()).files as { id: number; uuid: string; name: string }[]).find(
    (f) => f.name === 'Neon Rain',
  );
  await page.goto(`/file/${file?.uuid}`);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Open the haptic cue editor' }).click();
  const editor = page.getByRole('region', { name: 'Haptic cue editor' });
  const timeline = editor.getByTestId('cue-timeline');
  await expect(timeline).toBeVisible();
  const box = await timeline.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);

  await timeline.focus();
  await page.keyboard.press('n');
  await expect(page.getByTestId('cue-announcer')).toHaveText('Cue added at 0:00.000');
  await page.keyboard.press('7');
  await expect(editor.getByLabel('Strength (%)')).toHaveValue('70');
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('cue-announcer')).toHaveText('Deleted 1 cue');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('cue-announcer')).toHaveText('Undone');
  await page.keyboard.press('ArrowRight');
  await expect(editor.getByLabel('Strength (%)')).toHaveValue('70');
  // Nothing was saved: the draft waits in this browser and comes back on reopening.
  await page.reload();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(editor.getByText(/A draft from .* was restored from this browser\./)).toBeVisible();
  await editor.getByRole('button', { name: 'Discard draft' }).click();
  await expect(editor.getByText('No cues yet: draw one on the lane below, or record.')).toBeVisible();
});
