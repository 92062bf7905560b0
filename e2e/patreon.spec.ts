import type { APIRequestContext } from '@playwright/test';
import {
  DEMO_CAMPAIGN,
  type FakePatreon,
  startFakePatreon,
} from '../packages/server/src/test/fakes/patreon.ts';
import { expect, signUpViaApi, test } from './fixtures.ts';
import { E2E_PORT, FAKE_PATREON_PORT } from './playwright.config.ts';

// Linking Patreon: the account page sends the browser to Patreon's authorize page (a fake Patreon on
// FAKE_PATREON_PORT, where the server's PATREON_URL points), which approves at once and sends it back
// to /patreon/oauth with a code. The demo file Velvet Fog is locked to the Mesmer campaign's Devotee
// tier (21927318): it plays while the membership is active (and, once cancelled, until the paid
// period ends), and locks again when Patreon's webhook says the paid period is over.
let patreon: FakePatreon;
test.beforeAll(async () => {
  patreon = await startFakePatreon({
    port: FAKE_PATREON_PORT,
    clientId: 'e2e-client',
    clientSecret: 'e2e-client-secret',
    webhookSecret: 'e2e-webhook-secret',
  });
});
test.afterAll(() => patreon?.close());

async function velvetFog(request: APIRequestContext) {
  const res = await request.get('/api/files', { params: { nameQuery: 'Velvet Fog', pageSize: 50 } });
  const file = (await res.json()).files.find((f: { name: string }) => f.name === 'Velvet Fog');
  expect(file, 'demo file Velvet Fog').toBeTruthy();
  return file as { uuid: string; isLocked: boolean; audioURL: string | null };
}

test('a supporter links Patreon and a locked file plays; a cancelled pledge locks it again; disconnect clears', async ({
  page,
}) => {
  await signUpViaApi(page, 'patron');
  const patron = patreon.addUser({
    id: `e2e-${Date.now()}`,
    fullName: 'Pat E2E',
    memberships: [
      { campaign: DEMO_CAMPAIGN, patronStatus: 'active_patron', tiers: [DEMO_CAMPAIGN.tiers[1]] },
    ],
  });
  patreon.approveAs = patron.id;
  const before = await velvetFog(page.request);
  expect(before).toMatchObject({ isLocked: true, audioURL: null });

  await test.step('link through the authorize redirect', async () => {
    await page.goto('/account');
    const card = page.locator('#patreon');
    await expect(card.getByText('No Patreon account is linked yet.')).toBeVisible();
    await card.getByRole('button', { name: 'Link Patreon' }).click();
    await expect(page).toHaveURL(/\/account#patreon$/);
    await expect(page.getByText('Account linked!')).toBeVisible();
    await expect(card.getByText('Pat E2E')).toBeVisible();
    await expect(card.getByRole('list', { name: 'Memberships' }).getByRole('listitem')).toHaveText([
      'Mesmer · DevoteeActive',
    ]);
    const authorize = patreon.requests.find((r) => r.path === '/oauth2/authorize');
    expect(authorize?.query).toMatchObject({
      client_id: 'e2e-client',
      scope: 'identity identity.memberships',
      redirect_uri: `http://localhost:${E2E_PORT}/patreon/oauth`,
    });
  });

  await test.step('the locked file plays', async () => {
    const file = await velvetFog(page.request);
    expect(file.isLocked).toBe(false);
    expect(file.audioURL).toBeTruthy();
    await page.goto(`/file/${file.uuid}`);
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click();
    const bar = page.getByRole('region', { name: 'Audio player' });
    await expect(bar.getByRole('link', { name: 'Velvet Fog' })).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(
          () => (document.getElementById('mesmer-audio') as HTMLAudioElement | null)?.currentTime ?? 0,
        ),
      )
      .toBeGreaterThan(0);
  });

  await test.step("Patreon's webhook cancels the pledge: it plays until the paid period ends, then locks", async () => {
    await page.goto('/');
    const hook = `http://localhost:${E2E_PORT}/api/patreon/webhook`;
    patreon.cancel(patron.id, DEMO_CAMPAIGN.id, new Date(Date.now() + 7 * 24 * 60 * 60 * 1000));
    const sent = await patreon.sendWebhook(hook, 'members:pledge:delete', patron.id, DEMO_CAMPAIGN.id);
    expect(sent.status, sent.body).toBe(204);
    expect((await velvetFog(page.request)).isLocked).toBe(false);
    // The paid period is over.
    patreon.cancel(patron.id, DEMO_CAMPAIGN.id, new Date(Date.now() - 60 * 1000));
    const ended = await patreon.sendWebhook(hook, 'members:update', patron.id, DEMO_CAMPAIGN.id);
    expect(ended.status, ended.body).toBe(204);
    expect(await velvetFog(page.request)).toMatchObject({ isLocked: true, audioURL: null });
    // A forged one is refused.
    const forged = await patreon.sendWebhook(
      `http://localhost:${E2E_PORT}/api/patreon/webhook`,
      'members:pledge:create',
      patron.id,
      DEMO_CAMPAIGN.id,
      { signature: '0'.repeat(32) },
    );
    expect(forged.status).toBe(403);
    await page.goto('/account');
    await expect(
      page.locator('#patreon').getByRole('list', { name: 'Memberships' }).getByRole('listitem'),
    ).toHaveText(['Mesmer · DevoteeCancelled']);
  });

  await test.step('disconnect clears the memberships', async () => {
    const card = page.locator('#patreon');
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await page
      .getByRole('dialog', { name: 'Disconnect Patreon?' })
      .getByRole('button', { name: 'Disconnect' })
      .click();
    await expect(page.getByText('Disconnected from Patreon')).toBeVisible();
    await expect(card.getByText('No Patreon account is linked yet.')).toBeVisible();
    const me = (await (await page.request.get('/api/user')).json()).user;
    expect(me).toMatchObject({ patreonLinked: false, patreonName: null, memberships: [] });
  });
});
