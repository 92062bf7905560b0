import { SESSION_COOKIE } from '@mesmer/shared/domain/site';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authSessions, playlists } from '../../db/schema/index.ts';
import { authHeader, createUser, loginAs, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app, clock } = await createTestApp({ cookieDays: 30, sessionIdleDays: 14 });
const db = app.ctx.db;
const DAY_MS = 24 * 60 * 60 * 1000;

const me = (token: string) =>
  app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) }).then((r) => r.json().user);
const sessionsOf = async (user: TestUser) =>
  (await db.select().from(authSessions).where(eq(authSessions.userId, user.id))).length;

describe('session tokens', () => {
  it('are at least 128 random bits, new at every sign-in, and stored only hashed', async () => {
    const user = await createUser(db);
    const first = await loginAs(app, user.username, user.password);
    const second = await loginAs(app, user.username, user.password);
    expect(Buffer.from(first, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(first).not.toBe(second);
    const stored = await db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    expect(stored.map((s) => s.tokenHash)).not.toContain(first);
    expect(stored.map((s) => s.tokenHash)).not.toContain(second);
  });

  it('end after SESSION_IDLE_DAYS without use, and after COOKIE_DAYS however used', async () => {
    const user = await createUser(db);
    const idle = await loginAs(app, user.username, user.password);
    const busy = await loginAs(app, user.username, user.password);
    // Used every 13 days, a session lives on; unused for 14, it ends.
    clock.advance(13 * DAY_MS);
    expect((await me(busy))?.username).toBe(user.username);
    clock.advance(2 * DAY_MS);
    expect(await me(idle)).toBeNull();
    expect((await me(busy))?.username).toBe(user.username);
    clock.advance(13 * DAY_MS);
    expect((await me(busy))?.username).toBe(user.username);
    // 31 days after sign-in: past COOKIE_DAYS.
    clock.advance(3 * DAY_MS);
    expect(await me(busy)).toBeNull();
  });
});

describe('DELETE /api/sessions (sign out everywhere)', () => {
  it('ends every session of the account and clears the cookies; 401 signed out', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    const here = await loginAs(app, user.username, user.password);
    const elsewhere = await loginAs(app, user.username, user.password);
    const theirs = await loginAs(app, other.username, other.password);
    const res = await app.inject({ method: 'DELETE', url: '/api/sessions', headers: authHeader(here) });
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    expect(await me(here)).toBeNull();
    expect(await me(elsewhere)).toBeNull();
    expect(await sessionsOf(user)).toBe(0);
    expect((await me(theirs))?.username).toBe(other.username);
    expect((await app.inject({ method: 'DELETE', url: '/api/sessions' })).statusCode).toBe(401);
  });
});

describe('PUT /api/user/password', () => {
  const change = (token: string | null, payload: object) =>
    app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: token ? authHeader(token) : {},
      payload,
    });

  it('sets the new password, ends every other session and answers a new one', async () => {
    const user = await createUser(db);
    const here = await loginAs(app, user.username, user.password);
    const elsewhere = await loginAs(app, user.username, user.password);
    const res = await change(here, { currentPassword: user.password, newPassword: 'a brand new secret' });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe(token);
    expect(await me(here)).toBeNull();
    expect(await me(elsewhere)).toBeNull();
    expect((await me(token))?.username).toBe(user.username);
    expect(await sessionsOf(user)).toBe(1);
    const oldLogin = await app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { user: user.username, password: user.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    expect(await loginAs(app, user.username, 'a brand new secret')).toBeTruthy();
  });

  it('refuses a wrong current password (403, nothing changed, counted as a failed sign-in), bad input and no session', async () => {
    const user = await createUser(db);
    const token = await loginAs(app, user.username, user.password);
    const wrong = await change(token, {
      currentPassword: 'not it at all',
      newPassword: 'another new secret',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: 'The current password is not right.' });
    expect((await me(token))?.username).toBe(user.username);
    expect(await loginAs(app, user.username, user.password)).toBeTruthy();

    expect((await change(token, { currentPassword: user.password, newPassword: 'short' })).json()).toEqual({
      error: 'newPassword: Password must be at least 8 characters.',
      field: 'newPassword',
    });
    expect((await change(token, { newPassword: 'long enough here' })).json().field).toBe('currentPassword');
    expect((await change(null, { currentPassword: 'x', newPassword: 'long enough here' })).statusCode).toBe(
      401,
    );
  });
});

describe('writes with the session cookie from another site', () => {
  const create = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/playlists', headers, payload: { name: 'Forged', expLevel: 1 } });

  it('are refused by Sec-Fetch-Site or Origin, store nothing, and leave bearer clients and same-site pages alone', async () => {
    const user = await createUser(db);
    const token = await loginAs(app, user.username, user.password);
    const cookie = `${SESSION_COOKIE}=${token}`;
    const count = async () =>
      (await db.select().from(playlists).where(eq(playlists.creatorId, user.id))).length;

    const bySite = await create({ cookie, 'sec-fetch-site': 'cross-site' });
    expect(bySite.statusCode).toBe(403);
    expect(bySite.json()).toEqual({ error: 'Requests from other sites are refused.' });
    expect((await create({ cookie, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(await count()).toBe(0);

    expect((await create({ cookie, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(201);
    expect((await create({ cookie, origin: app.ctx.config.publicUrl })).statusCode).toBe(201);
    expect((await create({ ...authHeader(token), 'sec-fetch-site': 'cross-site' })).statusCode).toBe(201);
    expect(await count()).toBe(3);
  });
});

describe('a change of roles', () => {
  const cookieGet = (token: string) =>
    app.inject({ method: 'GET', url: '/api/user', cookies: { [SESSION_COOKIE]: token } });

  it("moves the browser's session to a new token at its next request; the old token stops working", async () => {
    const admin = await createUser(db, { roles: ['Administrator'] });
    const adminToken = await loginAs(app, admin.username, admin.password);
    const user = await createUser(db);
    const browserToken = await loginAs(app, user.username, user.password);
    const bearerToken = await loginAs(app, user.username, user.password);
    expect((await cookieGet(browserToken)).cookies).toEqual([]);

    const granted = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}/roles`,
      payload: { role: 'Contributor' },
      headers: authHeader(adminToken),
    });
    expect(granted.statusCode, granted.body).toBe(200);

    const next = await cookieGet(browserToken);
    expect(next.json().user.permissions).toContain('UPLOAD_PRIVATE_FILES');
    const fresh = next.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(fresh?.value).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(fresh?.value).not.toBe(browserToken);
    expect(fresh?.httpOnly).toBe(true);
    // Requests sent before the browser saw the new cookie still pass for a minute, then the old token ends.
    expect((await cookieGet(browserToken)).json().user.id).toBe(user.id);
    clock.advance(61_000);
    expect((await cookieGet(browserToken)).json().user).toBeNull();
    const after = await cookieGet(fresh?.value as string);
    expect(after.json().user.id).toBe(user.id);
    expect(after.cookies).toEqual([]);
    // A bearer client keeps its token (it holds it itself); it has the new permissions at once.
    expect((await me(bearerToken)).permissions).toContain('UPLOAD_PRIVATE_FILES');
    const stored = await db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    expect(stored).toHaveLength(3);
    expect(stored.every((s) => !s.rotatePending)).toBe(false);
  });
});
