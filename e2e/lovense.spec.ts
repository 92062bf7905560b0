import {
  FAKE_QR_CODE,
  type FakeLovense,
  startFakeLovense,
} from '../packages/server/src/test/fakes/lovense.ts';
import { vibrationLevel } from '../packages/shared/src/domain/haptic-cues.ts';
import { expect, signUpViaApi, test } from './fixtures.ts';
import { E2E_PORT, FAKE_LOVENSE_PORT } from './playwright.config.ts';

// Pairing a Lovense toy: the account page shows Lovense's QR code (from a fake Lovense on
// FAKE_LOVENSE_PORT, where the server's LOVENSE_API_URL points), the phone app scans it and reports
// its toys to our callback, and Test sends a vibration through Lovense.
let lovense: FakeLovense;
test.beforeAll(async () => {
  lovense = await startFakeLovense({ port: FAKE_LOVENSE_PORT, developerToken: 'e2e-developer-token' });
});
test.afterAll(() => lovense?.close());

test('a listener pairs Lovense Remote by QR code, sees the toy and tests it', async ({ page }) => {
  const me = await signUpViaApi(page, 'lovense');
  await page.goto('/account');
  await page.getByRole('button', { name: 'Connect Lovense' }).click();
  const popup = page.getByRole('dialog', { name: 'Connect Lovense' });
  await expect(popup.getByText(FAKE_QR_CODE)).toBeVisible();
  await expect(popup.getByRole('img', { name: 'Lovense pairing QR code' })).toBeVisible();
  await expect(popup.getByText(/Scan with the Lovense Remote app/)).toBeVisible();
  expect(lovense.qrRequests.at(-1)).toMatchObject({ uname: me.username, token: 'e2e-developer-token' });

  const scan = await lovense.scan(`http://localhost:${E2E_PORT}/api/lovense/callback`, {
    e2e1: { name: 'Lush' },
  });
  expect(scan.status).toBe(200);
  await expect(popup).toBeHidden();
  const toys = page.getByRole('list', { name: 'Lovense toys' });
  await expect(toys.getByRole('listitem')).toHaveText(['LushConnected']);

  const uid = lovense.qrRequests.at(-1)?.uid;
  await page.getByRole('button', { name: 'Test' }).click();
  await expect
    .poll(() => lovense.commands.filter((c) => c.uid === uid).map((c) => [c.action, c.timeSec]))
    .toEqual([['Vibrate:10', 2]]);

  await test.step('a file with haptics drives the toy while it plays', async () => {
    const settings = (await (await page.request.get('/api/user')).json()).user.lovenseSettings as {
      maxVibration: number;
    };
    const files = (
      await (await page.request.get('/api/files', { params: { nameQuery: 'Drifting Down' } })).json()
    ).files as { name: string; uuid: string; hapticsURL: string | null }[];
    const file = files.find((f) => f.name === 'Drifting Down');
    expect(file?.hapticsURL, 'Drifting Down has haptics').toBeTruthy();
    const cues = (await (await page.request.get(file?.hapticsURL ?? '')).json()) as { strength: number }[];
    const level = (strength: number) => `Vibrate:${vibrationLevel(strength, settings.maxVibration)}`;
    const before = lovense.commands.length;
    await page.goto(`/file/${file?.uuid}`);
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
    // Each cue vibrates at its strength (limited by max vibration) until its stop time.
    await expect
      .poll(
        () =>
          lovense.commands
            .slice(before)
            .filter((c) => c.uid === uid)
            .map((c) => c.action)
            .slice(0, 4),
        { timeout: 20_000 },
      )
      .toEqual([level(cues[0].strength), 'Vibrate:0', level(cues[1].strength), 'Vibrate:0']);
    await page.getByRole('button', { name: 'Pause' }).first().click();
  });

  await page.goto('/account');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByRole('button', { name: 'Connect Lovense' })).toBeVisible();
});
