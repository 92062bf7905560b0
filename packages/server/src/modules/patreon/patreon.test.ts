import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatreonConfig } from '../../config.ts';
import {
  membershipTiers,
  oauthStates,
  patreonLinks,
  patreonWebhookDeliveries,
  userMemberships,
} from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser, loginAs, type TestUser } from '../../test/factories.ts';
import {
  type FakeCampaign,
  type FakePatreonUser,
  memberEvent,
  patreonSignature,
  startFakePatreon,
} from '../../test/fakes/patreon.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createTier } from '../../test/library-factories.ts';
import { CONFIG_ERROR_LOG_MS } from './patreon.service.ts';

const fake = await startFakePatreon({
  clientId: 'test-client',
  clientSecret: 'test-client-secret',
  webhookSecret: 'test-webhook-secret',
});
afterAll(() => fake.close());

const patreon: PatreonConfig = {
  clientId: fake.clientId,
  clientSecret: fake.clientSecret,
  webhookSecret: fake.webhookSecret,
  baseUrl: fake.url,
  redirectUrl: 'http://localhost:3000/patreon/oauth',
};
/** The app's log lines at warn and above, parsed. */
const logLines: { level: number; msg: string; [key: string]: unknown }[] = [];
const { app, clock } = await createTestApp(
  { patreon, logLevel: 'warn' },
  { logStream: { write: (line: string) => logLines.push(JSON.parse(line)) } },
);
const unconfigured = await createTestApp();
const db = app.ctx.db;
// Patreon's paid periods run on the server's test clock.
fake.now = () => clock.now().getTime();
const DAY = 24 * 60 * 60 * 1000;

const CAMPAIGN: FakeCampaign = {
  id: '900100',
  name: 'Velvet Voice',
  tiers: [
    { id: '700001', title: 'Listener', amountCents: 300 },
    { id: '700002', title: 'Devotee', amountCents: 1000 },
    { id: '700003', title: 'Inner Circle', amountCents: 2500 },
  ],
};
const OTHER_CAMPAIGN: FakeCampaign = {
  id: '900200',
  name: 'Someone Else',
  tiers: [{ id: '800001', title: 'Fan', amountCents: 100 }],
};

type Signed = TestUser & { token: string };
let owner: Signed;
let creator: Signed;
let lockedFile: { uuid: string };

beforeAll(async () => {
  // User 1 is the site owner: made first so the others are ordinary users.
  owner = await createSignedInUser(app, { username: 'siteowner', roles: ['Administrator'] });
  creator = await createSignedInUser(app, { username: 'velvet', roles: ['Verified Creator'] });
  // Two of the campaign's three tiers are known here (the creator's files are locked to them).
  await createTier(db, {
    id: '700001',
    creatorName: 'Velvet Voice',
    title: 'Listener',
    rank: 1,
    creatorUserId: creator.id,
  });
  await createTier(db, {
    id: '700002',
    creatorName: 'Velvet Voice',
    title: 'Devotee',
    rank: 2,
    creatorUserId: creator.id,
  });
  lockedFile = await createFile(db, { authorId: creator.id, name: 'Velvet locked', tierIds: ['700001'] });
});

const as = (token: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: token ? authHeader(token) : {},
    ...(payload !== undefined && { payload }),
  } as InjectOptions);

let fakeIds = 0;
function patreonUser(memberships: FakePatreonUser['memberships'], campaign?: FakeCampaign): FakePatreonUser {
  fakeIds += 1;
  return fake.addUser({
    id: String(5_000_000 + fakeIds),
    fullName: `Patron ${fakeIds}`,
    memberships,
    campaign,
  });
}

/** GET /api/patreon/authorize, then the fake's authorize page: the code and state it sends back. */
async function authorize(token: string, query = '') {
  const res = await as(token, 'GET', `/api/patreon/authorize${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const page = await fetch(res.json().url, { redirect: 'manual' });
  const back = new URL(page.headers.get('location') ?? '');
  return { authCode: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
}

/** The whole link, as the browser makes it, approved at Patreon as `patron`. */
async function link(user: Signed, patron: FakePatreonUser, query = '') {
  fake.approveAs = patron.id;
  return as(user.token, 'POST', '/api/patreon/token', await authorize(user.token, query));
}

const audioOf = async (token: string | null) =>
  (await as(token, 'GET', `/api/files?uuid=${lockedFile.uuid}`)).json().files[0] as {
    isLocked: boolean;
    audioURL: string | null;
  };

const self = async (token: string) => (await as(token, 'GET', '/api/user')).json().user;

/** The member event Patreon would send now about `patron`'s membership of the campaign. */
const bodyOf = (patron: FakePatreonUser, campaignId = CAMPAIGN.id) =>
  JSON.stringify(memberEvent(patron, campaignId, fake.now()));

const membershipRows = (userId: number) =>
  db.select().from(userMemberships).where(eq(userMemberships.userId, userId));

const webhook = (event: string, body: string, signature = patreonSignature(body, fake.webhookSecret)) =>
  app.inject({
    method: 'POST',
    url: '/api/patreon/webhook',
    headers: {
      'content-type': 'application/json',
      'x-patreon-event': event,
      'x-patreon-signature': signature,
    },
    payload: body,
  });

describe('linking Patreon', () => {
  it('hands out an authorize URL with the identity scopes and a state bound to the session', async () => {
    const listener = await createSignedInUser(app);
    const res = await as(listener.token, 'GET', '/api/patreon/authorize');
    const url = new URL(res.json().url);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'test-client',
      redirect_uri: 'http://localhost:3000/patreon/oauth',
      scope: 'identity identity.memberships',
    });
    const state = url.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThanOrEqual(32);
    // Only its hash is kept, for this user.
    const rows = await db.select().from(oauthStates).where(eq(oauthStates.userId, listener.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].stateHash).not.toBe(state);
    const creatorScope = new URL(
      (await as(listener.token, 'GET', '/api/patreon/authorize?creator=true')).json().url,
    );
    expect(creatorScope.searchParams.get('scope')).toBe('identity identity.memberships campaigns');
  });

  it('links, keeps the tokens on the server only, and unlocks the files of the tier at once', async () => {
    const listener = await createSignedInUser(app);
    expect(await audioOf(listener.token)).toMatchObject({ isLocked: true, audioURL: null });
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);

    const res = await link(listener, patron);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      patreonLinked: true,
      patreonName: patron.fullName,
      memberships: [
        {
          creatorName: 'Velvet Voice',
          tierName: 'Listener',
          tierId: '700001',
          active: true,
          cancelled: false,
          lastVerified: clock.now().toISOString(),
        },
      ],
    });
    const [stored] = await db.select().from(patreonLinks).where(eq(patreonLinks.userId, listener.id));
    expect(stored).toMatchObject({ patreonUserId: patron.id, patreonName: patron.fullName });
    expect(res.body).not.toContain(stored.accessToken);
    expect(res.body).not.toContain(stored.refreshToken);
    // The token exchange sent the code with the client's credentials, form-encoded.
    const exchange = fake.requests.filter((r) => r.path === '/api/oauth2/token').at(-1);
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toMatchObject({
      grant_type: 'authorization_code',
      client_id: 'test-client',
      client_secret: 'test-client-secret',
      redirect_uri: 'http://localhost:3000/patreon/oauth',
    });
    // The tier's price and campaign came along; the state is used up.
    const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.id, '700001'));
    expect(tier).toMatchObject({ campaignId: CAMPAIGN.id, amountCents: 300, rank: 1 });
    expect(await db.select().from(oauthStates).where(eq(oauthStates.userId, listener.id))).toEqual([]);

    const me = await self(listener.token);
    expect(me).toMatchObject({ patreonLinked: true, patreonName: patron.fullName });
    expect(me.memberships).toHaveLength(1);
    expect(JSON.stringify(me)).not.toContain(stored.accessToken);
    const unlocked = await audioOf(listener.token);
    expect(unlocked.isLocked).toBe(false);
    expect(unlocked.audioURL).toMatch(/^\/media\/audio\//);
    expect((await as(listener.token, 'GET', unlocked.audioURL as string)).statusCode).not.toBe(403);
  });

  it('adds a new tier of a known campaign at the rank its price has reached, and leaves unknown campaigns out', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[2]] },
      { campaign: OTHER_CAMPAIGN, patronStatus: 'active_patron', tiers: OTHER_CAMPAIGN.tiers },
    ]);
    const res = await link(listener, patron);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().memberships).toMatchObject([
      { tierId: '700003', tierName: 'Inner Circle', active: true },
    ]);
    const tiers = await db.select().from(membershipTiers).where(eq(membershipTiers.campaignId, CAMPAIGN.id));
    expect(tiers.map((t) => [t.id, t.rank, t.creatorName]).sort()).toEqual([
      ['700001', 1, 'Velvet Voice'],
      ['700003', 1, 'Velvet Voice'],
    ]);
    expect(await db.select().from(membershipTiers).where(eq(membershipTiers.id, '800001'))).toEqual([]);
    // The dearer tier unlocks the cheaper tier's file.
    expect((await audioOf(listener.token)).isLocked).toBe(false);
  });

  it('refuses a missing, another session’s, another user’s, a reused or an expired state with 403', async () => {
    const listener = await createSignedInUser(app);
    const other = await createSignedInUser(app);
    const patron = patreonUser([]);
    fake.approveAs = patron.id;

    const made = await as(listener.token, 'POST', '/api/patreon/token', {
      authCode: 'code',
      state: randomBytes(32).toString('base64url'),
    });
    expect(made.statusCode).toBe(403);
    expect(made.json().error).toMatch(/Link Patreon again/);

    const theirs = await authorize(other.token);
    expect((await as(listener.token, 'POST', '/api/patreon/token', theirs)).statusCode).toBe(403);

    // Bound to the session that asked: the same user signed in elsewhere cannot use it.
    const mine = await authorize(listener.token);
    const elsewhere = (
      await app.inject({
        method: 'POST',
        url: '/api/token',
        payload: { user: listener.username, password: listener.password },
      })
    ).json().token;
    expect((await as(elsewhere, 'POST', '/api/patreon/token', mine)).statusCode).toBe(403);

    const once = await authorize(listener.token);
    expect((await as(listener.token, 'POST', '/api/patreon/token', once)).statusCode).toBe(200);
    expect((await as(listener.token, 'POST', '/api/patreon/token', once)).statusCode).toBe(403);

    const late = await authorize(listener.token);
    clock.advance(11 * 60 * 1000);
    expect((await as(listener.token, 'POST', '/api/patreon/token', late)).statusCode).toBe(403);
  });

  it('answers 400 naming the field for bad input, and for a code Patreon refuses', async () => {
    const listener = await createSignedInUser(app);
    const missing = await as(listener.token, 'POST', '/api/patreon/token', { state: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('authCode');
    const long = await as(listener.token, 'POST', '/api/patreon/token', {
      authCode: 'a',
      state: 'x'.repeat(201),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().field).toBe('state');
    const notBool = await as(listener.token, 'GET', '/api/patreon/authorize?creator=maybe');
    expect(notBool.statusCode).toBe(400);
    expect(notBool.json().field).toBe('creator');

    const { state } = await authorize(listener.token);
    const refused = await as(listener.token, 'POST', '/api/patreon/token', { authCode: 'not-a-code', state });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field).toBe('authCode');
    expect(await db.select().from(patreonLinks).where(eq(patreonLinks.userId, listener.id))).toEqual([]);
  });

  it('answers 401 to anonymous callers', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/patreon/authorize', undefined],
      ['POST', '/api/patreon/token', { authCode: 'a', state: 'b' }],
      ['GET', '/api/patreon', undefined],
      ['DELETE', '/api/patreon', undefined],
      ['POST', '/api/patreon/tiers/import', {}],
    ] as const) {
      expect((await as(null, method, url, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('shows each user only their own link and memberships', async () => {
    const alice = await createSignedInUser(app);
    const bob = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[1]] },
    ]);
    expect((await link(alice, patron)).statusCode).toBe(200);
    expect((await as(bob.token, 'GET', '/api/patreon')).json()).toEqual({
      patreonLinked: false,
      patreonName: null,
      memberships: [],
    });
    expect(await self(bob.token)).toMatchObject({ patreonLinked: false, patreonName: null, memberships: [] });
    expect((await audioOf(bob.token)).isLocked).toBe(true);
    // Alice's public profile says nothing of her link.
    const profile = (await as(bob.token, 'GET', `/api/user?username=${alice.username}`)).json().user;
    expect(profile.patreonName).toBeNull();
    expect(profile).not.toHaveProperty('memberships');
    // Bob disconnecting touches only Bob.
    expect((await as(bob.token, 'DELETE', '/api/patreon')).statusCode).toBe(204);
    expect((await self(alice.token)).patreonLinked).toBe(true);
  });

  it('moves a Patreon account linked again from another account', async () => {
    const first = await createSignedInUser(app);
    const second = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    expect((await link(first, patron)).statusCode).toBe(200);
    expect((await link(second, patron)).statusCode).toBe(200);
    expect(await self(first.token)).toMatchObject({ patreonLinked: false, memberships: [] });
    expect((await self(second.token)).memberships).toHaveLength(1);
  });
});

describe('keeping memberships current', () => {
  it('refuses a forged or tampered webhook (403) and changes nothing', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    expect((await audioOf(listener.token)).audioURL).not.toBeNull();

    fake.cancel(patron.id, CAMPAIGN.id, new Date(clock.now().getTime() - 1000));
    const body = bodyOf(patron);
    for (const signature of ['', 'a'.repeat(32), patreonSignature(body, 'wrong secret'), 'zz'.repeat(16)]) {
      const forged = await webhook('members:pledge:delete', body, signature);
      expect(forged.statusCode, signature).toBe(403);
    }
    // The right signature over another body.
    const tampered = await webhook(
      'members:pledge:delete',
      `${body} `,
      patreonSignature(body, fake.webhookSecret),
    );
    expect(tampered.statusCode).toBe(403);
    expect((await audioOf(listener.token)).audioURL).not.toBeNull();
    expect(await membershipRows(listener.id)).toMatchObject([{ active: true, cancelled: false }]);
  });

  it('a cancelled patron keeps the files until the paid period ends; the daily re-read agrees', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    const periodEnds = new Date(clock.now().getTime() + 10 * DAY);
    fake.cancel(patron.id, CAMPAIGN.id, periodEnds);

    const res = await webhook('members:pledge:delete', bodyOf(patron));
    expect(res.statusCode, res.body).toBe(204);
    expect((await audioOf(listener.token)).isLocked).toBe(false);
    expect(await membershipRows(listener.id)).toMatchObject([
      { tierId: '700001', active: true, cancelled: true, entitledUntil: periodEnds },
    ]);
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: true, cancelled: true });

    // The re-read a day later reads the same from Patreon: no flapping.
    clock.advance(DAY + 1000);
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: true, cancelled: true });
    expect((await audioOf(listener.token)).isLocked).toBe(false);
    const reads = fake.requests.filter((r) => r.path === '/api/oauth2/v2/identity');
    expect(reads.at(-1)?.query['fields[member]']).toContain('next_charge_date');

    // The period ends: the next account read locks, and the re-read after it agrees.
    clock.set(new Date(periodEnds.getTime() + 1000).toISOString());
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: false, cancelled: true });
    expect(await audioOf(listener.token)).toMatchObject({ isLocked: true, audioURL: null });
    clock.advance(DAY + 1000);
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: false, cancelled: true });
    expect((await audioOf(listener.token)).isLocked).toBe(true);
  });

  it('the periodic sweep ends a paid period without the user asking for anything', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    const periodEnds = new Date(clock.now().getTime() + 2 * DAY);
    fake.cancel(patron.id, CAMPAIGN.id, periodEnds);
    expect((await webhook('members:pledge:delete', bodyOf(patron))).statusCode).toBe(204);
    const service = app.services.patreon;
    clock.advance(DAY);
    await service.endPaidPeriods();
    expect((await audioOf(listener.token)).isLocked).toBe(false);
    clock.set(periodEnds.toISOString());
    expect(await service.endPaidPeriods()).toBeGreaterThanOrEqual(1);
    expect((await audioOf(listener.token)).isLocked).toBe(true);
    expect(await membershipRows(listener.id)).toMatchObject([{ active: false, cancelled: true }]);
  });

  it('a cancelled patron whose paid period Patreon does not date locks at once', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    const event = JSON.parse(bodyOf(patron));
    Object.assign(event.data.attributes, {
      patron_status: 'former_patron',
      next_charge_date: null,
      last_charge_date: null,
    });
    expect((await webhook('members:delete', JSON.stringify(event))).statusCode).toBe(204);
    expect(await audioOf(listener.token)).toMatchObject({ isLocked: true, audioURL: null });
    expect(await membershipRows(listener.id)).toMatchObject([
      { active: false, cancelled: true, entitledUntil: null },
    ]);
  });

  it('a replayed webhook body changes nothing (create, delete, the same create again)', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    const created = bodyOf(patron);
    expect((await webhook('members:pledge:create', created)).statusCode).toBe(204);
    // Cancelled with nothing left of the paid period: locked.
    fake.cancel(patron.id, CAMPAIGN.id, new Date(clock.now().getTime() - 1000));
    expect((await webhook('members:pledge:delete', bodyOf(patron))).statusCode).toBe(204);
    expect((await audioOf(listener.token)).isLocked).toBe(true);
    const before = await membershipRows(listener.id);

    clock.advance(60_000);
    const replay = await webhook('members:pledge:create', created);
    expect(replay.statusCode, replay.body).toBe(204);
    expect((await audioOf(listener.token)).isLocked).toBe(true);
    expect(await membershipRows(listener.id)).toEqual(before);
    // Each body is kept once, as a digest, not as the body.
    const kept = await db.select().from(patreonWebhookDeliveries);
    expect(kept.every((row) => /^[0-9a-f]{64}$/.test(row.digest))).toBe(true);
  });

  it('takes the meaning from the signed body, never from the X-Patreon-Event header', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    // A body saying the patron is active, sent as a deletion: nothing locks.
    expect((await webhook('members:pledge:delete', bodyOf(patron))).statusCode).toBe(204);
    expect((await audioOf(listener.token)).isLocked).toBe(false);
    expect(await membershipRows(listener.id)).toMatchObject([{ active: true, cancelled: false }]);
    // A body saying the pledge ended, sent as a creation: it locks.
    fake.cancel(patron.id, CAMPAIGN.id, new Date(clock.now().getTime() - 1000));
    expect((await webhook('members:pledge:create', bodyOf(patron))).statusCode).toBe(204);
    expect((await audioOf(listener.token)).isLocked).toBe(true);
    // And without any header at all.
    const again = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[1]] },
    ]);
    await link(listener, again);
    fake.cancel(again.id, CAMPAIGN.id, new Date(clock.now().getTime() - 1000));
    const body = bodyOf(again);
    const bare = await app.inject({
      method: 'POST',
      url: '/api/patreon/webhook',
      headers: {
        'content-type': 'application/json',
        'x-patreon-signature': patreonSignature(body, fake.webhookSecret),
      },
      payload: body,
    });
    expect(bare.statusCode).toBe(204);
    expect(await membershipRows(listener.id)).toMatchObject([{ tierId: '700002', active: false }]);
  });

  it('a lapsed (declined) pledge turns inactive without being cancelled; a renewed one unlocks again', async () => {
    const listener = await createSignedInUser(app);
    const membership: FakePatreonUser['memberships'][number] = {
      campaign: CAMPAIGN,
      patronStatus: 'active_patron',
      tiers: [CAMPAIGN.tiers[0]],
    };
    const patron = patreonUser([membership]);
    await link(listener, patron);

    membership.patronStatus = 'declined_patron';
    membership.tiers = [];
    expect((await webhook('members:pledge:update', bodyOf(patron))).statusCode).toBe(204);
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: false, cancelled: false });
    expect((await audioOf(listener.token)).isLocked).toBe(true);

    membership.patronStatus = 'active_patron';
    membership.tiers = [CAMPAIGN.tiers[1]];
    expect((await webhook('members:pledge:update', bodyOf(patron))).statusCode).toBe(204);
    expect((await self(listener.token)).memberships).toMatchObject([
      { tierId: '700002', active: true, cancelled: false },
    ]);
    expect((await audioOf(listener.token)).isLocked).toBe(false);
  });

  it('answers a signed webhook that is not JSON or a broken member with 400, and ignores other resources', async () => {
    expect((await webhook('members:pledge:create', 'not json')).statusCode).toBe(400);
    const broken = await webhook('members:pledge:create', '{"data":{"type":"member","id":"1"}}');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().field).toBe('body');
    // A post (whatever the header says) changes no membership.
    expect((await webhook('members:pledge:create', '{"data":{"type":"post","id":"1"}}')).statusCode).toBe(
      204,
    );
    expect((await webhook('posts:publish', '{"data":{"type":"post","id":"2"}}')).statusCode).toBe(204);
    // A member nobody here linked: nothing to do.
    const stranger = {
      data: {
        type: 'member',
        id: 'm',
        relationships: {
          user: { data: { type: 'user', id: '1' } },
          campaign: { data: { type: 'campaign', id: '2' } },
        },
      },
    };
    expect((await webhook('members:pledge:create', JSON.stringify(stranger))).statusCode).toBe(204);
  });

  it('GET /api/patreon reads the memberships again, renewing an expired access token', async () => {
    const listener = await createSignedInUser(app);
    const membership: FakePatreonUser['memberships'][number] = {
      campaign: CAMPAIGN,
      patronStatus: 'active_patron',
      tiers: [CAMPAIGN.tiers[0]],
    };
    const patron = patreonUser([membership]);
    await link(listener, patron);
    const [before] = await db.select().from(patreonLinks).where(eq(patreonLinks.userId, listener.id));

    membership.patronStatus = 'former_patron';
    membership.tiers = [];
    fake.expireAccessTokens();
    clock.advance(2 * 60 * 60 * 1000);
    const res = await as(listener.token, 'GET', '/api/patreon');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().memberships).toMatchObject([{ tierId: '700001', active: false, cancelled: true }]);
    const refreshed = fake.requests.filter(
      (r) =>
        r.path === '/api/oauth2/token' && new URLSearchParams(r.body).get('grant_type') === 'refresh_token',
    );
    expect(refreshed.at(-1)?.body).toContain(encodeURIComponent(before.refreshToken));
    const [after] = await db.select().from(patreonLinks).where(eq(patreonLinks.userId, listener.id));
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.lastVerified.getTime()).toBe(clock.now().getTime());
  });

  it('reads memberships not verified for 24 hours again on GET /api/user', async () => {
    const listener = await createSignedInUser(app);
    const membership: FakePatreonUser['memberships'][number] = {
      campaign: CAMPAIGN,
      patronStatus: 'active_patron',
      tiers: [CAMPAIGN.tiers[0]],
    };
    const patron = patreonUser([membership]);
    await link(listener, patron);
    membership.patronStatus = 'former_patron';
    membership.tiers = [];
    clock.advance(23 * 60 * 60 * 1000);
    expect((await self(listener.token)).memberships[0].active).toBe(true);
    clock.advance(2 * 60 * 60 * 1000);
    expect((await self(listener.token)).memberships[0]).toMatchObject({ active: false, cancelled: true });
    expect((await audioOf(listener.token)).isLocked).toBe(true);
  });

  it('drops a link Patreon no longer accepts (409 on refresh)', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    fake.revoke(patron.id);
    const res = await as(listener.token, 'GET', '/api/patreon');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/link Patreon again/);
    expect(await self(listener.token)).toMatchObject({ patreonLinked: false, memberships: [] });
  });

  it('keeps every link when Patreon refuses the site’s client (invalid_client), logging it once as a configuration error', async () => {
    const first = await createSignedInUser(app);
    const second = await createSignedInUser(app);
    for (const user of [first, second]) {
      await link(
        user,
        patreonUser([{ campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] }]),
      );
    }
    const linksBefore = await Promise.all(
      [first, second].map((u) => db.select().from(patreonLinks).where(eq(patreonLinks.userId, u.id))),
    );
    const secret = fake.clientSecret;
    fake.clientSecret = 'the operator changed it';
    logLines.length = 0;
    try {
      // Both tokens have run out: each renewal is refused with invalid_client.
      clock.advance(DAY + 1000);
      for (const user of [first, second]) {
        const me = await self(user.token);
        expect(me).toMatchObject({ patreonLinked: true, memberships: [{ active: true }] });
      }
      const refused = fake.requests.filter((r) => r.path === '/api/oauth2/token').slice(-2);
      expect(refused.map((r) => new URLSearchParams(r.body).get('grant_type'))).toEqual([
        'refresh_token',
        'refresh_token',
      ]);
      const asked = await as(first.token, 'GET', '/api/patreon');
      expect(asked.statusCode).toBe(503);
      expect(asked.json().error).toMatch(/not working on this site right now/);
      for (const [i, user] of [first, second].entries()) {
        expect(await db.select().from(patreonLinks).where(eq(patreonLinks.userId, user.id))).toEqual(
          linksBefore[i],
        );
        expect((await audioOf(user.token)).isLocked).toBe(false);
      }
      const errors = logLines.filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ patreonError: 'invalid_client' });
      expect(errors[0].msg).toMatch(/PATREON_CLIENT_SECRET/);
      // Once per window: the next window logs again.
      clock.advance(CONFIG_ERROR_LOG_MS);
      expect((await as(second.token, 'GET', '/api/patreon')).statusCode).toBe(503);
      expect(logLines.filter((l) => l.level >= 50)).toHaveLength(2);
    } finally {
      fake.clientSecret = secret;
    }
    // Fixed: the next read renews the tokens and keeps going.
    const fixed = await as(first.token, 'GET', '/api/patreon');
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ patreonLinked: true, memberships: [{ active: true }] });
  });

  it('disconnecting forgets the link and clears the memberships', async () => {
    const listener = await createSignedInUser(app);
    const patron = patreonUser([
      { campaign: CAMPAIGN, patronStatus: 'active_patron', tiers: [CAMPAIGN.tiers[0]] },
    ]);
    await link(listener, patron);
    expect((await audioOf(listener.token)).isLocked).toBe(false);
    expect((await as(listener.token, 'DELETE', '/api/patreon')).statusCode).toBe(204);
    expect(await self(listener.token)).toMatchObject({
      patreonLinked: false,
      patreonName: null,
      memberships: [],
    });
    expect(await db.select().from(patreonLinks).where(eq(patreonLinks.userId, listener.id))).toEqual([]);
    expect(await db.select().from(userMemberships).where(eq(userMemberships.userId, listener.id))).toEqual(
      [],
    );
    expect((await audioOf(listener.token)).isLocked).toBe(true);
  });
});

describe('importing a creator’s tiers', () => {
  // The tests above moved the clock by weeks: the owner signs in again.
  beforeAll(async () => {
    owner.token = await loginAs(app, owner.username, owner.password);
  });

  const campaign: FakeCampaign = {
    id: '900300',
    name: 'Moon Whisper',
    tiers: [
      { id: '710003', title: 'Full Moon', amountCents: 2000 },
      { id: '710001', title: 'Crescent', amountCents: 300 },
      { id: '710002', title: 'Half Moon', amountCents: 800 },
    ],
  };

  it('imports the campaign’s tiers ranked by price for the linked creator', async () => {
    const moon = await createSignedInUser(app, { roles: ['Verified Creator'] });
    const patron = patreonUser([], campaign);
    expect((await link(moon, patron, '?creator=true')).statusCode).toBe(200);
    const res = await as(moon.token, 'POST', '/api/patreon/tiers/import', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      creatorName: 'Moon Whisper',
      campaignId: '900300',
      tiers: [
        { id: '710001', name: 'Crescent', amountCents: 300, rank: 1 },
        { id: '710002', name: 'Half Moon', amountCents: 800, rank: 2 },
        { id: '710003', name: 'Full Moon', amountCents: 2000, rank: 3 },
      ],
    });
    const rows = await db.select().from(membershipTiers).where(eq(membershipTiers.campaignId, '900300'));
    expect(rows.every((r) => r.creatorUserId === moon.id)).toBe(true);
    expect((await self(moon.token)).patreonTiers).toEqual([
      { name: 'Crescent', rank: 1 },
      { name: 'Half Moon', rank: 2 },
      { name: 'Full Moon', rank: 3 },
    ]);
    // An administrator imports it again for them; nobody else may.
    const again = await as(owner.token, 'POST', '/api/patreon/tiers/import', { username: moon.username });
    expect(again.statusCode, again.body).toBe(200);
    const other = await createSignedInUser(app);
    expect(
      (await as(other.token, 'POST', '/api/patreon/tiers/import', { username: moon.username })).statusCode,
    ).toBe(403);
  });

  it('refuses callers without a linked campaign, and a link without the campaigns scope', async () => {
    const unlinked = await createSignedInUser(app, { roles: ['Verified Creator'] });
    const refused = await as(unlinked.token, 'POST', '/api/patreon/tiers/import', {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/Link your Patreon account first/);
    const noCampaign = await createSignedInUser(app);
    await link(noCampaign, patreonUser([]), '?creator=true');
    expect((await as(noCampaign.token, 'POST', '/api/patreon/tiers/import', {})).statusCode).toBe(403);
    const listenerScope = await createSignedInUser(app);
    await link(listenerScope, patreonUser([], { ...campaign, id: '900301' }));
    expect((await as(listenerScope.token, 'POST', '/api/patreon/tiers/import', {})).statusCode).toBe(403);
    // Administrators: a user who does not exist, or has not linked.
    expect(
      (await as(owner.token, 'POST', '/api/patreon/tiers/import', { username: 'nobody_here' })).statusCode,
    ).toBe(404);
    const plain = await createUser(db);
    expect(
      (await as(owner.token, 'POST', '/api/patreon/tiers/import', { username: plain.username })).statusCode,
    ).toBe(409);
    const blank = await as(owner.token, 'POST', '/api/patreon/tiers/import', { username: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().field).toBe('username');
  });
});

describe('without a Patreon client configured', () => {
  it('answers 503 with a clear message', async () => {
    const user = await createSignedInUser(unconfigured.app);
    for (const [method, url, payload] of [
      ['GET', '/api/patreon/authorize', undefined],
      ['POST', '/api/patreon/token', { authCode: 'a', state: 'b' }],
      ['GET', '/api/patreon', undefined],
      ['DELETE', '/api/patreon', undefined],
      ['POST', '/api/patreon/tiers/import', {}],
    ] as const) {
      const res = await unconfigured.app.inject({
        method,
        url,
        headers: authHeader(user.token),
        ...(payload && { payload }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(503);
      expect(res.json().error).toBe('Patreon linking is not configured on this site.');
    }
    const hook = await unconfigured.app.inject({
      method: 'POST',
      url: '/api/patreon/webhook',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.statusCode).toBe(503);
    // GET /api/user is unaffected.
    expect(
      (
        await unconfigured.app.inject({ method: 'GET', url: '/api/user', headers: authHeader(user.token) })
      ).json().user.patreonLinked,
    ).toBe(false);
  });
});
