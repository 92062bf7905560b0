import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LOVENSE_NOT_CONFIGURED } from '@mesmer/shared/api/lovense';
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { lovenseConnections, lovenseToys, users } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { FAKE_QR_CODE, FAKE_QR_PNG, simulateScan, startFakeLovense } from '../../test/fakes/lovense.ts';
import { createTestApp } from '../../test/harness.ts';

const fake = await startFakeLovense();
afterAll(() => fake.close());
const lovense = { developerToken: fake.developerToken, apiUrl: fake.url };
const { app } = await createTestApp({ lovense });
// Lovense Remote calls back over HTTP, as it would on the Internet.
await app.listen({ port: 0, host: '127.0.0.1' });
const callbackUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/lovense/callback`;
const db = app.ctx.db;

type Signed = TestUser & { token: string };
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const TOYS = { ab12: { name: 'lush' }, cd34: { name: 'hush', status: 0 } };

/** A signed-in user whose Lovense Remote scanned a QR code reporting `toys`. */
async function paired(toys = TOYS): Promise<Signed> {
  const user = await createSignedInUser(app);
  expect((await call('POST', '/api/lovense/qr', user.token)).statusCode).toBe(200);
  expect((await fake.scan(callbackUrl, toys)).status).toBe(200);
  return user;
}

beforeEach(() => {
  fake.failing = false;
  fake.qrRequests.length = 0;
  fake.commands.length = 0;
});

describe('pairing with Lovense', () => {
  it('gives a QR code from Lovense, bound to the user and a secret kept only as its hash', async () => {
    const me = await createSignedInUser(app, { username: 'lovenser' });
    const res = await call('POST', '/api/lovense/qr', me.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      qrcodeUrl: `data:image/png;base64,${FAKE_QR_PNG.toString('base64')}`,
      code: FAKE_QR_CODE,
    });
    expect(fake.qrRequests).toEqual([
      { token: fake.developerToken, uid: String(me.id), uname: 'lovenser', utoken: expect.any(String), v: 2 },
    ]);
    const { utoken } = fake.qrRequests[0];
    expect(utoken.length).toBeGreaterThanOrEqual(40);
    const [row] = await db.select({ token: users.lovenseToken }).from(users).where(eq(users.id, me.id));
    expect(row.token).toBe(sha256(utoken));
  });

  it('records the connection and the toys Lovense Remote reports, and lists them', async () => {
    const me = await paired();
    const [connection] = await db
      .select()
      .from(lovenseConnections)
      .where(eq(lovenseConnections.userId, me.id));
    expect(connection).toMatchObject({
      domain: '192-168-1-44.lovense.club',
      httpPort: 34567,
      httpsPort: 34568,
      wsPort: 34567,
      wssPort: 34568,
      appType: 'remote',
      platform: 'android',
      appVersion: '6.3.2',
    });
    const stored = await db.select().from(lovenseToys).where(eq(lovenseToys.userId, me.id));
    expect(
      stored.map(({ toyId, name, nickName, connected }) => ({ toyId, name, nickName, connected })),
    ).toEqual(
      expect.arrayContaining([
        { toyId: 'ab12', name: 'lush', nickName: null, connected: true },
        { toyId: 'cd34', name: 'hush', nickName: null, connected: false },
      ]),
    );
    const toys = await call('GET', '/api/lovense/toys', me.token);
    expect(toys.statusCode).toBe(200);
    expect(toys.json()).toEqual({
      connected: true,
      toys: [
        { id: 'cd34', name: 'hush', connected: false },
        { id: 'ab12', name: 'lush', connected: true },
      ],
    });
  });

  it('replaces the toy list with each later report', async () => {
    const me = await paired();
    await fake.scan(callbackUrl, { cd34: { name: 'hush', status: '1' } });
    expect((await call('GET', '/api/lovense/toys', me.token)).json()).toEqual({
      connected: true,
      toys: [{ id: 'cd34', name: 'hush', connected: true }],
    });
  });

  it('is not connected before a scan', async () => {
    const me = await createSignedInUser(app);
    expect((await call('GET', '/api/lovense/toys', me.token)).json()).toEqual({ connected: false, toys: [] });
  });

  it('refuses a forged callback (403) and keeps nothing from it', async () => {
    const me = await createSignedInUser(app);
    await call('POST', '/api/lovense/qr', me.token);
    const { utoken } = fake.qrRequests[0];
    const never = await createSignedInUser(app);
    for (const [uid, token] of [
      [String(me.id), 'not-the-secret'],
      [String(me.id), sha256(utoken)],
      [String(never.id), utoken],
      ['999999', utoken],
      ['0', utoken],
      ['abc', utoken],
    ]) {
      const answer = await simulateScan(callbackUrl, uid, token, TOYS);
      expect(answer.status, `${uid} ${token}`).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ error: 'This Lovense callback is not one we asked for.' });
    }
    expect(await db.select().from(lovenseConnections).where(eq(lovenseConnections.userId, me.id))).toEqual(
      [],
    );
    expect(await db.select().from(lovenseToys).where(eq(lovenseToys.userId, me.id))).toEqual([]);
  });

  it('stops trusting the secret of an earlier QR code once a new one is asked for', async () => {
    const me = await createSignedInUser(app);
    await call('POST', '/api/lovense/qr', me.token);
    await call('POST', '/api/lovense/qr', me.token);
    const [first, second] = fake.qrRequests;
    expect(first.utoken).not.toBe(second.utoken);
    expect((await simulateScan(callbackUrl, String(me.id), first.utoken, TOYS)).status).toBe(403);
    expect((await simulateScan(callbackUrl, String(me.id), second.utoken, TOYS)).status).toBe(200);
  });

  it('checks the callback body: 400 naming the field', async () => {
    const base = { uid: '1', utoken: 'x', domain: '192-168-1-44.lovense.club' };
    const cases: [object, string][] = [
      [{ ...base, domain: undefined }, 'domain'],
      [{ ...base, domain: 'http://evil/' }, 'domain'],
      [{ ...base, httpPort: '70000' }, 'httpPort'],
      [{ ...base, utoken: '' }, 'utoken'],
      [{ ...base, toys: { a: { name: 'x'.repeat(101) } } }, 'toys.a.name'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/lovense/callback', undefined, payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field, field).toBe(field);
    }
  });

  it('answers 502 when Lovense fails to give a QR code, and keeps the old secret', async () => {
    const me = await createSignedInUser(app);
    fake.failing = true;
    const res = await call('POST', '/api/lovense/qr', me.token);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('Lovense did not give a QR code. Please try again shortly.');
    const [row] = await db.select({ token: users.lovenseToken }).from(users).where(eq(users.id, me.id));
    expect(row.token).toBeNull();
  });
});

describe('commands', () => {
  it('forwards levels to Lovense for the signed-in user, in order; Test vibrates at 10 for 2 s', async () => {
    const me = await paired();
    for (const body of [
      { level: 5, timeSec: 0 },
      { level: 20, timeSec: 0 },
      { level: 0, timeSec: 0 },
    ]) {
      expect((await call('POST', '/api/lovense/command', me.token, body)).statusCode).toBe(204);
    }
    expect((await call('POST', '/api/lovense/test', me.token)).statusCode).toBe(204);
    const command = (action: string, timeSec: number) => ({
      token: fake.developerToken,
      uid: String(me.id),
      command: 'Function',
      action,
      timeSec,
      apiVer: 1,
    });
    expect(fake.commands).toEqual([
      command('Vibrate:5', 0),
      command('Vibrate:20', 0),
      command('Vibrate:0', 0),
      command('Vibrate:10', 2),
    ]);
  });

  it('checks the command body: 400 naming the field', async () => {
    const me = await paired();
    const cases: [object, string][] = [
      [{ level: 21, timeSec: 0 }, 'level'],
      [{ level: -1, timeSec: 0 }, 'level'],
      [{ level: 2.5, timeSec: 0 }, 'level'],
      [{ level: '5', timeSec: 0 }, 'level'],
      [{ level: 5, timeSec: 61 }, 'timeSec'],
      [{ level: 5, timeSec: 0.5 }, 'timeSec'],
      // Lovense: 0, or more than 1.
      [{ level: 5, timeSec: 1 }, 'timeSec'],
      [{ level: 5 }, 'timeSec'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/lovense/command', me.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field, JSON.stringify(payload)).toBe(field);
    }
    expect(fake.commands).toEqual([]);
  });

  it('sends durations in Lovense’s documented range, and Lovense (the fake) takes them', async () => {
    const me = await paired();
    for (const timeSec of [0, 1.5, 2, 60]) {
      const res = await call('POST', '/api/lovense/command', me.token, { level: 7, timeSec });
      expect(res.statusCode, `${timeSec}: ${res.body}`).toBe(204);
    }
    expect(fake.commands.map((c) => [c.action, c.timeSec])).toEqual([
      ['Vibrate:7', 0],
      ['Vibrate:7', 1.5],
      ['Vibrate:7', 2],
      ['Vibrate:7', 60],
    ]);
    // The fake refuses what Lovense refuses, with Lovense's "Invalid Parameter" code.
    const direct = await fetch(`${fake.url}/api/lan/v2/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: fake.developerToken,
        uid: String(me.id),
        command: 'Function',
        action: 'Vibrate:7',
        timeSec: 1,
        apiVer: 1,
      }),
    });
    expect((await direct.json()).code).toBe(404);
  });

  it('answers 409 without a connected app, or when Lovense says it is offline; 502 when Lovense fails', async () => {
    const lonely = await createSignedInUser(app);
    const none = await call('POST', '/api/lovense/test', lonely.token);
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('No Lovense toy is connected. Connect one on your account page first.');
    expect(fake.commands).toEqual([]);

    const me = await paired();
    fake.goOffline(String(me.id));
    const offline = await call('POST', '/api/lovense/test', me.token);
    expect(offline.statusCode).toBe(409);
    expect(offline.json().error).toBe('Lovense Remote is offline. Open the app and keep your toy connected.');
    fake.failing = true;
    expect((await call('POST', '/api/lovense/test', me.token)).statusCode).toBe(502);
  });

  it('disconnects: the toys, the connection and the secret are forgotten', async () => {
    const me = await paired();
    const { utoken } = fake.qrRequests[0];
    expect((await call('DELETE', '/api/lovense', me.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/lovense/toys', me.token)).json()).toEqual({ connected: false, toys: [] });
    expect(await db.select().from(lovenseToys).where(eq(lovenseToys.userId, me.id))).toEqual([]);
    const [row] = await db.select({ token: users.lovenseToken }).from(users).where(eq(users.id, me.id));
    expect(row.token).toBeNull();
    expect((await simulateScan(callbackUrl, String(me.id), utoken, TOYS)).status).toBe(403);
    expect((await call('POST', '/api/lovense/test', me.token)).statusCode).toBe(409);
  });
});

describe('who may do what', () => {
  it('answers 401 to a visitor on every call but the callback', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/lovense/qr', undefined],
      ['GET', '/api/lovense/toys', undefined],
      ['POST', '/api/lovense/command', { level: 5, timeSec: 0 }],
      ['POST', '/api/lovense/test', undefined],
      ['DELETE', '/api/lovense', undefined],
    ] as const) {
      expect((await call(method, url, undefined, body)).statusCode, url).toBe(401);
    }
    expect(fake.qrRequests).toEqual([]);
    expect(fake.commands).toEqual([]);
  });

  it("does not let a stranger see or drive another user's toys", async () => {
    const owner = await paired();
    const stranger = await createSignedInUser(app);
    expect((await call('GET', '/api/lovense/toys', stranger.token)).json()).toEqual({
      connected: false,
      toys: [],
    });
    expect(
      (await call('POST', '/api/lovense/command', stranger.token, { level: 20, timeSec: 0 })).statusCode,
    ).toBe(409);
    // Disconnecting is one's own: the owner's pairing stays.
    expect((await call('DELETE', '/api/lovense', stranger.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/lovense/toys', owner.token)).json().toys).toHaveLength(2);
    expect(fake.commands.filter((c) => c.uid === String(owner.id))).toEqual([]);
    // Even with the owner's secret in hand, a callback cannot move the pairing to the stranger.
    const { utoken } = fake.qrRequests[0];
    expect((await simulateScan(callbackUrl, String(stranger.id), utoken, TOYS)).status).toBe(403);
  });
});

describe('without LOVENSE_DEVELOPER_TOKEN', async () => {
  const { app: bare } = await createTestApp();
  const me = await createSignedInUser(bare);

  it('answers 503 saying so (after 401 for a visitor)', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/lovense/qr', undefined],
      ['GET', '/api/lovense/toys', undefined],
      ['POST', '/api/lovense/command', { level: 5, timeSec: 0 }],
      ['POST', '/api/lovense/test', undefined],
      ['DELETE', '/api/lovense', undefined],
    ] as const) {
      const visitor = await bare.inject({ method, url, payload: body });
      expect(visitor.statusCode, url).toBe(401);
      const res = await bare.inject({ method, url, payload: body, headers: authHeader(me.token) });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({ error: LOVENSE_NOT_CONFIGURED });
    }
    const callback = await bare.inject({
      method: 'POST',
      url: '/api/lovense/callback',
      payload: { uid: String(me.id), utoken: 'x', domain: 'a.lovense.club' },
    });
    expect(callback.statusCode).toBe(503);
  });
});

describe('the per-account command limit', async () => {
  const { app: limited } = await createTestApp({ lovense, rateLimit: true });
  const me = await createSignedInUser(limited);
  const other = await createSignedInUser(limited);
  const send = (user: Signed) =>
    limited.inject({
      method: 'POST',
      url: '/api/lovense/command',
      payload: { level: 3, timeSec: 0 },
      headers: authHeader(user.token),
    });

  it('takes 20 commands a second from one account and answers 429 beyond, not to the next account', async () => {
    // Not paired: each command within the limit answers 409; the limit comes first.
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await send(me)).statusCode);
    expect(statuses).toEqual([...Array(20).fill(409), 429]);
    expect((await send(other)).statusCode).toBe(409);
  });
});
