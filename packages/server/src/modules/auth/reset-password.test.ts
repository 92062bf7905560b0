import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { authSessions, emailTokens, users } from '../../db/schema/index.ts';
import { hashToken } from '../../platform/tokens.ts';
import { authHeader, createUser, loginAs, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';

const { app, clock, mailer, config } = await createTestApp();
const db = app.ctx.db;
const HOUR_MS = 60 * 60 * 1000;
const REQUESTED = { message: 'If an account matches, we sent an e-mail with a reset link.' };
const FAILED = { error: 'Failed to reset password.' };

function resetPassword(payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/reset_password', payload });
}
function login(user: string, password: string) {
  return app.inject({ method: 'POST', url: '/api/token', payload: { user, password } });
}
/** Asks for a reset link for `user` and answers the token in it (the mail goes out after the answer). */
async function requestLink(user: TestUser): Promise<string> {
  const before = mailer.sent.length;
  const res = await resetPassword({ username: user.username, email: user.email });
  expect(res.statusCode).toBe(200);
  await vi.waitFor(() => expect(mailer.sent.length).toBeGreaterThan(before));
  const link = mailer.lastTo(user.email)?.link ?? '';
  return new URL(link).searchParams.get('token') ?? '';
}

describe('POST /api/reset_password (request)', () => {
  it('mails a 1-hour, single-use link stored as a hash when username and e-mail match', async () => {
    const user = await createUser(db, { username: 'Forgetful', email: 'Forgetful@example.test' });
    mailer.sent = [];
    const res = await resetPassword({ username: 'forgetful', email: 'FORGETFUL@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(REQUESTED);
    await vi.waitFor(() => expect(mailer.sent).toHaveLength(1));
    const [mail] = mailer.sent;
    expect(mail.to).toBe('Forgetful@example.test');
    expect(mail.subject).toBe('Reset your Mesmer password');
    expect(mail.link).toMatch(new RegExp(`^${config.publicUrl}/reset_password\\?token=[\\w-]{43}$`));
    expect(mail.text).toContain(mail.link);
    expect(mail.text).toContain('expires in 1 hour');
    const token = new URL(mail.link ?? '').searchParams.get('token') ?? '';
    const rows = await db.select().from(emailTokens).where(eq(emailTokens.userId, user.id));
    expect(rows).toEqual([
      {
        tokenHash: hashToken(token),
        userId: user.id,
        purpose: 'reset',
        expiresAt: new Date(clock.now().getTime() + HOUR_MS),
        usedAt: null,
      },
    ]);
  });

  it('answers the same and sends nothing when no account matches both fields', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    mailer.sent = [];
    for (const payload of [
      { username: user.username, email: other.email },
      { username: 'no_such_user', email: user.email },
      { username: 'no_such_user', email: 'nobody@example.test' },
    ]) {
      const res = await resetPassword(payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(REQUESTED);
    }
    expect(mailer.sent).toEqual([]);
  });

  it('names a missing field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'someone' }, 'email'],
      [{ email: 'someone@example.test' }, 'username'],
      [{ username: '  ', email: 'someone@example.test' }, 'username'],
      [{}, 'username'],
      [{ token: 'abc' }, 'password'],
      [{ token: '', password: 'long enough' }, 'token'],
      [{ token: 'abc', password: 12345678 }, 'password'],
    ];
    for (const [payload, field] of cases) {
      const res = await resetPassword(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await resetPassword({ username: 'someone' })).json()).toEqual({
      error: 'email: is required',
      field: 'email',
    });
  });
});

describe('POST /api/reset_password (confirm)', () => {
  it('sets the new password, ends every session and uses up the link', async () => {
    const user = await createUser(db);
    const sessionA = await loginAs(app, user.username, user.password);
    const sessionB = await loginAs(app, user.username, user.password);
    const token = await requestLink(user);

    const res = await resetPassword({ token, password: 'brand new password' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect((await login(user.username, user.password)).statusCode).toBe(401);
    expect((await login(user.username, 'brand new password')).statusCode).toBe(200);
    for (const old of [sessionA, sessionB]) {
      const me = await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(old) });
      expect(me.json()).toEqual({ user: null });
    }
    const [stored] = await db.select().from(users).where(eq(users.id, user.id));
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [link] = await db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, hashToken(token)));
    expect(link.usedAt).toEqual(clock.now());

    const again = await resetPassword({ token, password: 'another password' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(FAILED);
    expect((await login(user.username, 'brand new password')).statusCode).toBe(200);
  });

  it('accepts the username and e-mail alongside when they match (any case)', async () => {
    const user = await createUser(db, { username: 'Matchy', email: 'matchy@example.test' });
    const token = await requestLink(user);
    const res = await resetPassword({
      token,
      password: 'new password!',
      username: 'MATCHY',
      email: 'Matchy@Example.test',
    });
    expect(res.statusCode).toBe(204);
  });

  it('refuses a link for someone else and keeps it usable for its owner', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    const token = await requestLink(user);
    const res = await resetPassword({ token, password: 'hijacked pass', username: other.username });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(FAILED);
    expect((await login(user.username, user.password)).statusCode).toBe(200);
    expect((await resetPassword({ token, password: 'rightful pass' })).statusCode).toBe(204);
  });

  it('works until the hour is up, then fails', async () => {
    const user = await createUser(db);
    const early = await requestLink(user);
    clock.advance(HOUR_MS - 1000);
    expect((await resetPassword({ token: early, password: 'in time pass' })).statusCode).toBe(204);

    const late = await requestLink(user);
    clock.advance(HOUR_MS);
    const res = await resetPassword({ token: late, password: 'too late pass' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(FAILED);
    expect((await login(user.username, 'in time pass')).statusCode).toBe(200);
  });

  it('ends older reset links once the password changed', async () => {
    const user = await createUser(db);
    const older = await requestLink(user);
    const newer = await requestLink(user);
    expect((await resetPassword({ token: newer, password: 'newest password' })).statusCode).toBe(204);
    expect((await resetPassword({ token: older, password: 'older password' })).json()).toEqual(FAILED);
  });

  it('refuses unknown tokens and verification tokens', async () => {
    expect((await resetPassword({ token: 'made-up', password: 'password 123' })).json()).toEqual(FAILED);
    const reg = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { user: 'verifyonly', email: 'verifyonly@example.test', password: 'password 1' },
    });
    expect(reg.statusCode).toBe(201);
    const verifyToken = new URL(mailer.lastTo('verifyonly@example.test')?.link ?? '').searchParams.get(
      'token',
    );
    const res = await resetPassword({ token: verifyToken, password: 'password 123' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(FAILED);
  });

  it('checks the new password before using the link', async () => {
    const user = await createUser(db);
    const token = await requestLink(user);
    const res = await resetPassword({ token, password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'password: Password must be at least 8 characters.',
      field: 'password',
    });
    expect((await resetPassword({ token, password: 'long enough now' })).statusCode).toBe(204);
    const sessions = await db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    expect(sessions).toEqual([]);
  });
});
