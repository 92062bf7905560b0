import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  FAKE_VIBRATOR_NAME,
  type FakeButtplug,
  startFakeButtplug,
} from '../packages/server/src/test/fakes/buttplug.ts';
import { vibrationLevel } from '../packages/shared/src/domain/haptic-cues.ts';
import { expect, signUpViaApi, test } from './fixtures.ts';
import { FAKE_BUTTPLUG_PORT } from './playwright.config.ts';

/**
 * Toys over Intiface Central (Buttplug): the browser connects to a fake Intiface Central on this
 * machine (packages/server/src/test/fakes/buttplug.ts), which records what the toy was told.
 */

let fake: FakeButtplug;
test.beforeAll(async () => {
  // Pinging is required, as an Intiface Central with a max ping time would require it.
  fake = await startFakeButtplug({ port: FAKE_BUTTPLUG_PORT, maxPingTime: 2000 });
});
test.afterAll(async () => {
  await fake.close();
});

async function connectIntiface(page: Page) {
  await page.goto('/account');
  await page.getByRole('radio', { name: /Intiface Central/ }).check();
  const address = page.getByRole('textbox', { name: 'Intiface Central address' });
  await expect(address).toHaveValue('ws://127.0.0.1:12345');
  await address.fill(fake.url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText('Connected to Intiface Central.')).toBeVisible();
}

test('connect Intiface Central, scan, and test the toy it finds', async ({ page }) => {
  await signUpViaApi(page, 'intiface');
  fake.clear();

  await test.step('nothing listening at the address: a clear error', async () => {
    await page.goto('/account');
    await page.getByRole('radio', { name: /Intiface Central/ }).check();
    // A free port next to the fake's (E2E_PORT + 23 is no one's).
    await page
      .getByRole('textbox', { name: 'Intiface Central address' })
      .fill(`ws://127.0.0.1:${fake.port + 1}`);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      `Could not reach Intiface Central at ws://127.0.0.1:${fake.port + 1}. Is it running with its server started?`,
    );
  });

  await test.step('connect, scan, the fake vibrator is listed', async () => {
    await connectIntiface(page);
    await page.getByRole('button', { name: 'Scan for toys' }).click();
    await expect(page.getByRole('list', { name: 'Toys' }).getByText(FAKE_VIBRATOR_NAME)).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).include('section[aria-label="Haptics"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  await test.step('Test vibrates at 50 % for a second, then stops', async () => {
    await page.getByRole('button', { name: `Test ${FAKE_VIBRATOR_NAME}` }).click();
    await expect.poll(() => fake.summary()).toEqual(['vibrate 0.5', 'stop']);
    const [vibrate, stop] = fake.commands;
    expect(vibrate).toMatchObject({
      type: 'ScalarCmd',
      deviceIndex: 0,
      scalars: [{ Index: 0, Scalar: 0.5, ActuatorType: 'Vibrate' }],
    });
    expect(stop).toMatchObject({ type: 'StopDeviceCmd', deviceIndex: 0 });
    expect(stop.at - vibrate.at).toBeGreaterThanOrEqual(900);
  });

  await test.step('the choice is remembered; Disconnect stops every toy', async () => {
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
    await expect.poll(() => fake.commands.at(-1)?.type).toBe('StopAllDevices');
    await page.reload();
    await expect(page.getByRole('radio', { name: /Intiface Central/ })).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Intiface Central address' })).toHaveValue(fake.url);
    expect(fake.pings).toBeGreaterThan(0);
  });
});

/** The demo file 'Drifting Down', which has a haptic cue file (packages/server/src/db/seed/demo-catalogue.ts). */
async function fileWithHaptics(page: Page): Promise<{ uuid: string; hapticsURL: string }> {
  const files = (
    await (await page.request.get('/api/files', { params: { nameQuery: 'Drifting Down' } })).json()
  ).files as { name: string; uuid: string; hapticsURL: string | null }[];
  const file = files.find((f) => f.name === 'Drifting Down');
  expect(file?.hapticsURL, 'Drifting Down has haptics').toBeTruthy();
  return { uuid: file?.uuid ?? '', hapticsURL: file?.hapticsURL ?? '' };
}

/** Plays a file from its page, reached in the app: a page load would end the toy's connection, as it would for a listener. */
async function playInApp(page: Page, uuid: string) {
  await page.evaluate((fileUuid) => {
    history.pushState(null, '', `/file/${fileUuid}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, uuid);
  await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
}

test('a file with haptics drives the toy through Intiface Central', async ({ page }) => {
  await signUpViaApi(page, 'intifaceplay');
  const user = (await (await page.request.get('/api/user')).json()).user as {
    lovenseSettings: { maxVibration: number; vibrationOffset: number };
  };
  const file = await fileWithHaptics(page);
  const cues = (await (await page.request.get(file.hapticsURL)).json()) as { strength: number }[];
  const speed = (strength: number) => vibrationLevel(strength, user.lovenseSettings.maxVibration) / 20;

  await connectIntiface(page);
  await page.getByRole('button', { name: 'Scan for toys' }).click();
  await expect(page.getByRole('list', { name: 'Toys' }).getByText(FAKE_VIBRATOR_NAME)).toBeVisible();
  fake.clear();

  await playInApp(page, file.uuid);
  // Each cue vibrates at its strength (limited by max vibration) and stops at its end; cues never touch.
  await expect
    .poll(() => fake.summary().slice(0, 4), { timeout: 20_000 })
    .toEqual([`vibrate ${speed(cues[0].strength)}`, 'stop', `vibrate ${speed(cues[1].strength)}`, 'stop']);
});

test('the wake-up button stops the toy at once, fades the track out and plays an awakener', async ({
  page,
}) => {
  await signUpViaApi(page, 'intifacewake');
  const file = await fileWithHaptics(page);
  const cues = (await (await page.request.get(file.hapticsURL)).json()) as {
    time: number;
    stopTime: number;
  }[];
  // NaN until the player's audio element is there (it comes with the first track).
  const audioMs = () =>
    page.evaluate(
      () =>
        ((document.getElementById('mesmer-audio') as HTMLAudioElement | null)?.currentTime ?? Number.NaN) *
        1000,
    );
  await connectIntiface(page);
  await page.getByRole('button', { name: 'Scan for toys' }).click();
  await expect(page.getByRole('list', { name: 'Toys' }).getByText(FAKE_VIBRATOR_NAME)).toBeVisible();
  fake.clear();

  await playInApp(page, file.uuid);
  // The listener presses the button while the toy vibrates to a cue with at least 1.5 s of it left.
  let cue: { time: number; stopTime: number } | undefined;
  await expect
    .poll(
      async () => {
        const at = await audioMs();
        cue = cues.find((c) => c.time + 200 <= at && at < c.stopTime - 1500);
        return cue !== undefined && fake.summary().at(-1)?.startsWith('vibrate');
      },
      { timeout: 40_000, intervals: [50] },
    )
    .toBe(true);
  const bar = page.getByRole('region', { name: 'Audio player' });
  const before = fake.commands.length;
  await bar.getByRole('button', { name: 'Wake up' }).click();

  await expect(bar.getByRole('button', { name: 'Waking…' })).toBeDisabled();
  // The toy is told to stop before the cue's own end: the stop is the button's.
  await expect.poll(() => fake.summary().slice(before), { intervals: [20] }).toContain('stop');
  expect(await audioMs()).toBeLessThan(cue?.stopTime ?? 0);
  // The track fades out and the awakener plays; no cue reached the toy meanwhile.
  await expect(bar.getByRole('link', { name: /wake/i })).toBeVisible({ timeout: 8000 });
  await expect
    .poll(() => page.evaluate(() => (document.getElementById('mesmer-audio') as HTMLAudioElement).paused))
    .toBe(false);
  expect(
    fake
      .summary()
      .slice(before)
      .filter((command) => command.startsWith('vibrate')),
  ).toEqual([]);
});
