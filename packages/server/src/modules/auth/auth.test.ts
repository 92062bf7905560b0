import { USERNAME_RULE_MESSAGE } from '@mesmer/shared/domain/username';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authSessions, emailTokens, users } from '../../db/schema/index.ts';
import { hashToken } from '../../platform/tokens.ts';
import { authHeader, createUser, loginAs } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app, clock, mailer, config } = await createTestApp();
const httpsApp = await createTestApp({ publicUrl: 'https://mesmer.example' });
const db = app.ctx.db;
const DAY_MS = 24 * 60 * 60 * 1000;

function register(payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/register', payload });
}
function login(payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/token', payload });
}
function me(token: string) {
  return app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) });
}
function cookie(res: { cookies: { name: string }[] }, name: string) {
  return res.cookies.find((c) => c.name === name) as Record<string, unknown> | undefined;
}
function setCookieHeaders(res: { headers: Record<string, unknown> }): string[] {
  const h = res.headers['set-cookie'];
  return Array.isArray(h) ? h : [String(h)];
}
async function countUsers() {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row.n;
}
function verifyTokenFrom(link: string | undefined): string {
  const url = new URL(link ?? '');
  return url.searchParams.get('token') ?? '';
}

const selfDefaults = {
  imageURL: null,
  biography: '',
  points: 0,
  streak: 0,
  patreonName: null,
  triggers: [],
  censorTriggers: false,
  hideLockedFiles: false,
  insightsOptOut: false,
  patreonLinked: false,
  patreonTiers: [],
  memberships: [],
  lovenseToken: null,
  lovenseSettings: { vibrationOffset: 0, maxVibration: 50 },
};

describe('POST /api/register', () => {
  it('keeps id 1 and every role from the first public sign-up on an empty database, signed in at once', async () => {
    expect(await countUsers()).toBe(0);
    const res = await register({
      user: 'Owner',
      email: 'Owner@Example.test',
      password: 'owner password',
      timezone: 'Europe/Berlin',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
      user: {
        ...selfDefaults,
        id: 2,
        username: 'Owner',
        email: 'Owner@Example.test',
        emailVerified: false,
        timezone: 'Europe/Berlin',
        roles: [],
        permissions: [],
        createdAt: clock.now().toISOString(),
      },
    });
    expect((await me(body.token)).json().user.username).toBe('Owner');
    expect(await db.select({ id: users.id }).from(users)).toEqual([{ id: 2 }]);
  });

  it('sets the HttpOnly SameSite=Lax session cookie and the readable marker cookie', async () => {
    const res = await register({ user: 'cookie_fan', email: 'cookie@example.test', password: 'long enough' });
    expect(res.statusCode).toBe(201);
    const { token, user } = res.json();
    expect(cookie(res, 'token')).toEqual({
      name: 'token',
      value: token,
      path: '/',
      maxAge: config.cookieDays * 24 * 60 * 60,
      httpOnly: true,
      sameSite: 'Lax',
    });
    expect(cookie(res, 'mesmer_session')).toEqual({
      name: 'mesmer_session',
      value: String(user.id),
      path: '/',
      maxAge: config.cookieDays * 24 * 60 * 60,
      sameSite: 'Lax',
    });
    for (const header of setCookieHeaders(res)) expect(header).not.toContain('Secure');
  });

  it('gives later accounts no role and no permission', async () => {
    const res = await register({ user: 'second', email: 'second@example.test', password: 'password 2' });
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(user.id).toBeGreaterThan(1);
    expect(user.roles).toEqual([]);
    expect(user.permissions).toEqual([]);
    expect(user.timezone).toBe('UTC');
  });

  it('sends a verification link that is stored only as a hash and lasts 48 hours', async () => {
    const res = await register({ user: 'mailme', email: 'mailme@example.test', password: 'password 3' });
    const mail = mailer.lastTo('mailme@example.test');
    expect(mail?.subject).toBe('Confirm your e-mail for Mesmer');
    expect(mail?.link).toMatch(new RegExp(`^${config.publicUrl}/verify\\?token=[\\w-]{43}$`));
    expect(mail?.text).toContain(mail?.link);
    expect(mail?.text).toContain('Hi mailme,');
    expect(mail?.text.trimEnd().endsWith('Mesmer')).toBe(true);
    const token = verifyTokenFrom(mail?.link);
    const rows = await db.select().from(emailTokens).where(eq(emailTokens.userId, res.json().user.id));
    expect(rows).toEqual([
      {
        tokenHash: hashToken(token),
        userId: res.json().user.id,
        purpose: 'verify',
        expiresAt: new Date(clock.now().getTime() + 2 * DAY_MS),
        usedAt: null,
      },
    ]);
  });

  it('answers 409 when the username is taken, whatever its case', async () => {
    const before = await countUsers();
    const res = await register({ user: 'OWNER', email: 'new@example.test', password: 'whatever1' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'The username or email you entered is already in use.' });
    expect(await countUsers()).toBe(before);
  });

  it('answers 409 when the e-mail is taken, whatever its case', async () => {
    const res = await register({ user: 'newname', email: 'owner@EXAMPLE.TEST', password: 'whatever1' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'The username or email you entered is already in use.' });
  });

  it('lets exactly one of two simultaneous sign-ups with the same name through', async () => {
    const before = await countUsers();
    const [a, b] = await Promise.all([
      register({ user: 'racer', email: 'racer1@example.test', password: 'password 1' }),
      register({ user: 'Racer', email: 'racer2@example.test', password: 'password 2' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await countUsers()).toBe(before + 1);
  });

  it('rejects an invalid username with the rule', async () => {
    for (const name of ['ab', 'a'.repeat(21), 'with space', 'me@home', 'émile']) {
      const res = await register({ user: name, email: 'x@example.test', password: 'password 1' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `user: ${USERNAME_RULE_MESSAGE}`, field: 'user' });
    }
  });

  it('names the field of other bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'x@example.test', password: 'password 1' }, 'user'],
      [{ user: 'valid_name', password: 'password 1' }, 'email'],
      [{ user: 'valid_name', email: 'not-an-email', password: 'password 1' }, 'email'],
      [{ user: 'valid_name', email: 'x@example.test' }, 'password'],
      [{ user: 'valid_name', email: 'x@example.test', password: 'short' }, 'password'],
      [
        { user: 'valid_name', email: 'x@example.test', password: 'password 1', timezone: 'Mars/Base' },
        'timezone',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const short = await register({ user: 'valid_name', email: 'x@example.test', password: 'short' });
    expect(short.json()).toEqual({
      error: 'password: Password must be at least 8 characters.',
      field: 'password',
    });
    expect(await db.select().from(users).where(eq(users.username, 'valid_name'))).toEqual([]);
  });
});

describe('POST /api/token', () => {
  it('logs in by username, case-insensitively, and stores the timezone', async () => {
    const alice = await createUser(db, { username: 'Alice', email: 'alice@example.test' });
    const res = await login({ user: 'aLiCe', password: alice.password, timezone: 'America/New_York' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
      user: {
        ...selfDefaults,
        id: alice.id,
        username: 'Alice',
        email: 'alice@example.test',
        emailVerified: false,
        timezone: 'America/New_York',
        roles: [],
        permissions: [],
        createdAt: expect.any(String),
      },
    });
    expect(cookie(res, 'token')).toMatchObject({ value: body.token, httpOnly: true, sameSite: 'Lax' });
    expect(cookie(res, 'mesmer_session')).toMatchObject({ value: String(alice.id), sameSite: 'Lax' });
    expect(cookie(res, 'mesmer_session')?.httpOnly).toBeUndefined();
    const [row] = await db.select({ timezone: users.timezone }).from(users).where(eq(users.id, alice.id));
    expect(row.timezone).toBe('America/New_York');
  });

  it('logs in by e-mail, case-insensitively', async () => {
    const bob = await createUser(db, { email: 'Bob@Example.test' });
    const res = await login({ user: 'BOB@example.TEST', password: bob.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(bob.id);
  });

  it('authenticates later requests by cookie as well as by bearer header', async () => {
    const carol = await createUser(db);
    const res = await login({ user: carol.username, password: carol.password });
    const byCookie = await app.inject({
      method: 'GET',
      url: '/api/user',
      cookies: { token: res.json().token },
    });
    expect(byCookie.json().user.id).toBe(carol.id);
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const dave = await createUser(db);
    const wrong = await login({ user: dave.username, password: 'not the password' });
    const unknown = await login({ user: 'nobody_here', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid credentials.' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('stores only the hash of the session token, expiring after the configured cookie days', async () => {
    const erin = await createUser(db);
    const token = await loginAs(app, erin.username, erin.password);
    const rows = await db.select().from(authSessions).where(eq(authSessions.userId, erin.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(hashToken(token));
    expect(rows[0].expiresAt).toEqual(new Date(clock.now().getTime() + config.cookieDays * DAY_MS));
  });

  it('ends the session when it expires', async () => {
    const frank = await createUser(db);
    const token = await loginAs(app, frank.username, frank.password);
    const signedIn = clock.now().getTime();
    // Used every 10 days (so never idle: sessions.test.ts), up to the last millisecond of COOKIE_DAYS.
    for (let day = 10; day < config.cookieDays; day += 10) {
      clock.advance(10 * DAY_MS);
      expect((await me(token)).json().user.id).toBe(frank.id);
    }
    clock.set(new Date(signedIn + config.cookieDays * DAY_MS - 1).toISOString());
    expect((await me(token)).json().user.id).toBe(frank.id);
    clock.advance(1);
    expect((await me(token)).json()).toEqual({ user: null });
  });

  it('names the missing field', async () => {
    for (const [payload, field] of [
      [{ password: 'x' }, 'user'],
      [{ user: 'someone' }, 'password'],
      [{ user: '   ', password: 'x' }, 'user'],
      [{ user: 'someone', password: 'x', timezone: 'Nowhere/Land' }, 'timezone'],
    ] as const) {
      const res = await login(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('sets Secure cookies when the public URL is https', async () => {
    const user = await createUser(httpsApp.app.ctx.db);
    const res = await httpsApp.app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { user: user.username, password: user.password },
    });
    expect(cookie(res, 'token')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(cookie(res, 'mesmer_session')).toMatchObject({ secure: true, sameSite: 'Lax' });
  });
});

describe('DELETE /api/token', () => {
  it('ends only this session and clears both cookies', async () => {
    const gina = await createUser(db);
    const first = await loginAs(app, gina.username, gina.password);
    const second = await loginAs(app, gina.username, gina.password);
    const res = await app.inject({ method: 'DELETE', url: '/api/token', headers: authHeader(first) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    for (const name of ['token', 'mesmer_session']) {
      expect(cookie(res, name)).toMatchObject({ value: '', path: '/' });
      expect(new Date(String(cookie(res, name)?.expires)).getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect((await me(first)).json()).toEqual({ user: null });
    expect((await me(second)).json().user.id).toBe(gina.id);
    const rows = await db.select().from(authSessions).where(eq(authSessions.userId, gina.id));
    expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(second)]);
  });

  it('answers 401 without a session, and still clears stale cookies', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/token', cookies: { token: 'stale' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'You need to be logged in to do that.' });
    expect(cookie(res, 'token')).toMatchObject({ value: '' });
    const bare = await app.inject({ method: 'DELETE', url: '/api/token' });
    expect(bare.statusCode).toBe(401);
  });
});

describe('POST /api/verify', () => {
  async function registerAndGetToken(name: string) {
    const res = await register({ user: name, email: `${name}@example.test`, password: 'password 1' });
    return {
      session: res.json().token as string,
      token: verifyTokenFrom(mailer.lastTo(`${name}@example.test`)?.link),
    };
  }
  const verify = (token: unknown) => app.inject({ method: 'POST', url: '/api/verify', payload: { token } });

  it('confirms the e-mail once', async () => {
    const { session, token } = await registerAndGetToken('verifier');
    const res = await verify(token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(session)).json().user.emailVerified).toBe(true);
    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'Verification failed.' });
  });

  it('fails after 48 hours', async () => {
    const { session, token } = await registerAndGetToken('latecomer');
    clock.advance(2 * DAY_MS);
    const res = await verify(token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Verification failed.' });
    // The session (30 days) is still alive; only the link ran out.
    expect((await me(session)).json().user.emailVerified).toBe(false);
  });

  it('works just before the 48 hours are up', async () => {
    const { token } = await registerAndGetToken('justintime');
    clock.advance(2 * DAY_MS - 1000);
    expect((await verify(token)).statusCode).toBe(204);
  });

  it('rejects an unknown token and names a missing one', async () => {
    const res = await verify('made-up-token');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Verification failed.' });
    const missing = await app.inject({ method: 'POST', url: '/api/verify', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('token');
  });
});
