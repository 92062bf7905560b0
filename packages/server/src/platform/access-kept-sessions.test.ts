import type { RoleName } from '@mesmer/shared/domain/permissions';
import { eq, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { keptGenerations } from '../db/schema/index.ts';
import { authHeader, createUser, loginAs, type TestUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { createTier, grantMembership } from '../test/library-factories.ts';
import { liveSessionUserQuery } from './access.repo.ts';
import { rotateSessionsOnNextRequest } from './session-cache.ts';
import { hashToken } from './tokens.ts';

// Session users kept in the process while the session generation is unchanged (decision 034).
const { app, clock } = await createTestApp({ cookieDays: 30, sessionIdleDays: 14 });
const db = app.ctx.db;
const { access, sessions } = app.services;
const IDLE_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

const lookup = (token: string) => sessions.sessionUser(token, clock.now(), IDLE_DAYS);
const rowsOf = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** A user signed in, whose session user is kept: a second lookup answers the same object. */
async function keptSession(roles: RoleName[] = []) {
  const user = await createUser(db, { roles });
  const token = await loginAs(app, user.username, user.password);
  const first = await lookup(token);
  expect(first?.id).toBe(user.id);
  expect(await lookup(token)).toBe(first);
  return { user, token, first };
}

/**
 * Renames a user without raising the session generation (triggers off for this transaction): only
 * a session user answered without the lookup still has the old name.
 */
async function renameUnnoticed(user: TestUser, username: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`update users set username = ${username} where id = ${user.id}`);
  });
}

describe('a kept session user', () => {
  it('answers the next lookup of the same token without running the lookup', async () => {
    const { user, token, first } = await keptSession();
    await renameUnnoticed(user, `${user.username}-unnoticed`);
    const second = await lookup(token);
    expect(second).toBe(first);
    expect(second?.username).toBe(user.username);
    // Any newer generation drops it: the lookup runs and reads what is stored.
    await db.execute(sql`update kept_generations set generation = generation + 1 where name = 'sessions'`);
    expect((await lookup(token))?.username).toBe(`${user.username}-unnoticed`);
  });

  it('is frozen: requests that share it cannot change it for each other', async () => {
    const { first } = await keptSession(['Moderator']);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.roles)).toBe(true);
  });

  it('sees a sign-out at the next lookup, through the API or straight in the database', async () => {
    const viaApi = await keptSession();
    const signedOut = await app.inject({
      method: 'DELETE',
      url: '/api/token',
      headers: authHeader(viaApi.token),
    });
    expect(signedOut.statusCode).toBeLessThan(300);
    expect(await lookup(viaApi.token)).toBeNull();

    const viaSql = await keptSession();
    await db.execute(sql`delete from auth_sessions where token_hash = ${hashToken(viaSql.token)}`);
    expect(await lookup(viaSql.token)).toBeNull();
  });

  it('sees a change of roles, through the API or straight in the database', async () => {
    const admin = await createUser(db, { roles: ['Administrator'] });
    const adminToken = await loginAs(app, admin.username, admin.password);
    const { user, token } = await keptSession();
    const granted = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}/roles`,
      payload: { role: 'Contributor' },
      headers: authHeader(adminToken),
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await lookup(token))?.roles).toEqual(['Contributor']);

    const other = await keptSession();
    await db.execute(
      sql`insert into user_roles (user_id, role_id) select ${other.user.id}, id from roles where name = 'Moderator'`,
    );
    expect((await lookup(other.token))?.roles).toEqual(['Moderator']);
  });

  it('is not kept while its session waits for a new token, which a role change asked for', async () => {
    const { user, token } = await keptSession();
    await rotateSessionsOnNextRequest(db, user.id);
    const pending = await lookup(token);
    if (!pending) throw new Error('no session');
    expect(await lookup(token)).not.toBe(pending);
    expect(await sessions.rotateIfPending(pending, token, clock.now())).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    // The old token works for the grace minute, then ends: its kept end is the new one.
    const old = await lookup(token);
    expect(await lookup(token)).toBe(old);
    clock.advance(61_000);
    expect(await lookup(token)).toBeNull();
  });

  it('sees a suspension, a new username, timezone or hide-locked setting', async () => {
    const suspended = await keptSession();
    await db.execute(sql`update users set suspended_at = now() where id = ${suspended.user.id}`);
    expect(await lookup(suspended.token)).toBeNull();

    const { user, token, first } = await keptSession();
    await db.execute(
      sql`update users set username = ${`${user.username}-new`}, timezone = 'Europe/Paris' where id = ${user.id}`,
    );
    const renamed = await lookup(token);
    expect(renamed).toEqual({ ...first, username: `${user.username}-new`, timezone: 'Europe/Paris' });
    await db.execute(sql`update users set hide_locked_files = true where id = ${user.id}`);
    const hiding = await lookup(token);
    expect(hiding).not.toBe(renamed);
    expect((await access.viewer(hiding)).hideLockedFiles).toBe(true);
  });

  it("sees a change of memberships and of the held creator's tiers", async () => {
    const creator = await createUser(db);
    const bronze = await createTier(db, {
      creatorName: `Studio ${creator.id}`,
      rank: 1,
      creatorUserId: creator.id,
    });
    const { user, token, first } = await keptSession();
    expect((await access.viewer(first)).entitledTierIds).toEqual(new Set());

    await grantMembership(db, user.id, bronze.id);
    const member = await lookup(token);
    expect((await access.viewer(member)).entitledTierIds).toEqual(new Set([bronze.id]));
    expect(await lookup(token)).toBe(member);

    // A lower tier added to the creator the user holds a tier of is unlocked too.
    const basic = await createTier(db, {
      creatorName: `Studio ${creator.id}`,
      rank: 0,
      creatorUserId: creator.id,
    });
    expect((await access.viewer(await lookup(token))).entitledTierIds).toEqual(
      new Set([bronze.id, basic.id]),
    );

    await db.execute(sql`update user_memberships set active = false where user_id = ${user.id}`);
    expect((await access.viewer(await lookup(token))).entitledTierIds).toEqual(new Set());
  });

  it('sees its absolute end or last-seen time moved earlier straight in the database', async () => {
    const ended = await keptSession();
    await db.execute(
      sql`update auth_sessions set expires_at = ${clock.now()} where token_hash = ${hashToken(ended.token)}`,
    );
    expect(await lookup(ended.token)).toBeNull();

    const idle = await keptSession();
    const longAgo = new Date(clock.now().getTime() - 15 * DAY_MS);
    await db.execute(
      sql`update auth_sessions set last_seen_at = ${longAgo} where token_hash = ${hashToken(idle.token)}`,
    );
    expect(await lookup(idle.token)).toBeNull();
  });

  it('ends after idleDays without use and at the absolute end however used; the hourly touch keeps it', async () => {
    const user = await createUser(db);
    const idle = await loginAs(app, user.username, user.password);
    const busy = await loginAs(app, user.username, user.password);
    const keptIdle = await lookup(idle);
    const keptBusy = await lookup(busy);
    expect(await lookup(idle)).toBe(keptIdle);
    const lastSeen = async () =>
      (
        await rowsOf<{ last_seen_at: Date | string }>(
          sql`select last_seen_at from auth_sessions where token_hash = ${hashToken(busy)}`,
        )
      ).map((r) => new Date(r.last_seen_at).getTime());

    // Used every 13 days, a session lives on (touched, and still kept); unused for 14, it ends.
    clock.advance(13 * DAY_MS);
    expect(await lookup(busy)).toBe(keptBusy);
    expect(await lastSeen()).toEqual([clock.now().getTime()]);
    clock.advance(2 * DAY_MS);
    expect(await lookup(idle)).toBeNull();
    expect(await lookup(busy)).toBe(keptBusy);
    clock.advance(13 * DAY_MS);
    expect(await lookup(busy)).toBe(keptBusy);
    // 31 days after sign-in: past COOKIE_DAYS.
    clock.advance(3 * DAY_MS);
    expect(await lookup(busy)).toBeNull();
  });
});

describe('the session generation', () => {
  const generationIn = async (q: Pick<typeof db, 'select'>) =>
    (await q.select().from(keptGenerations).where(eq(keptGenerations.name, 'sessions')))[0].generation;
  class RolledBack extends Error {}

  /** Whether `write` raises the generation, seen in its own transaction, which is then rolled back. */
  async function raises(write: SQL): Promise<boolean> {
    let rose = false;
    await db
      .transaction(async (tx) => {
        const before = await generationIn(tx);
        await tx.execute(write);
        rose = (await generationIn(tx)) > before;
        throw new RolledBack();
      })
      .catch((err) => {
        if (!(err instanceof RolledBack)) throw err;
      });
    return rose;
  }

  const lookupText = liveSessionUserQuery(db).toSQL().sql;
  const columnsRead = (table: string) =>
    [...new Set([...lookupText.matchAll(new RegExp(`"${table}"\\."(\\w+)"`, 'g'))].map((m) => m[1]))].sort();

  it('rises with every write to each table the lookup reads but users and auth_sessions', async () => {
    const tables = [...new Set([...lookupText.matchAll(/(?:from|join)\s+"(\w+)"/g)].map((m) => m[1]))];
    expect(tables).toEqual(
      expect.arrayContaining([
        'auth_sessions',
        'users',
        'user_roles',
        'roles',
        'user_memberships',
        'membership_tiers',
      ]),
    );
    for (const table of tables.filter((t) => !['users', 'auth_sessions', 'kept_generations'].includes(t))) {
      const [{ column_name: column }] = await rowsOf<{ column_name: string }>(
        sql`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position limit 1`,
      );
      const t = sql.identifier(table);
      const c = sql.identifier(column);
      const writes = {
        insert: sql`insert into ${t} select * from ${t} where false`,
        update: sql`update ${t} set ${c} = ${c} where false`,
        delete: sql`delete from ${t} where false`,
        truncate: sql`truncate ${t} cascade`,
      };
      for (const [write, statement] of Object.entries(writes)) {
        expect({ table, write, rises: await raises(statement) }).toEqual({ table, write, rises: true });
      }
    }
  });

  it('rises with a change to every column of users and auth_sessions the lookup reads (last_seen_at only moved back)', async () => {
    const spare = await createUser(db); // no session, role or membership refers to it
    const { token } = await keptSession();
    const ofUser = (set: SQL) => sql`update users set ${set} where id = ${spare.id}`;
    const ofSession = (set: SQL) =>
      sql`update auth_sessions set ${set} where token_hash = ${hashToken(token)}`;
    const changes: Record<string, SQL> = {
      'users.id': ofUser(sql`id = id + 1000000`),
      'users.username': ofUser(sql`username = username || '-changed'`),
      'users.timezone': ofUser(sql`timezone = 'Asia/Tokyo'`),
      'users.hide_locked_files': ofUser(sql`hide_locked_files = not hide_locked_files`),
      'users.suspended_at': ofUser(sql`suspended_at = now()`),
      'auth_sessions.token_hash': ofSession(sql`token_hash = token_hash || '-changed'`),
      'auth_sessions.user_id': ofSession(sql`user_id = ${spare.id}`),
      'auth_sessions.expires_at': ofSession(sql`expires_at = expires_at + interval '1 day'`),
      'auth_sessions.rotate_pending': ofSession(sql`rotate_pending = not rotate_pending`),
      // Moved forward by the hourly touch (below, it does not rise); moved back, a kept session may have ended.
      'auth_sessions.last_seen_at': ofSession(sql`last_seen_at = last_seen_at - interval '1 second'`),
    };
    const read = [
      ...columnsRead('users').map((c) => `users.${c}`),
      ...columnsRead('auth_sessions').map((c) => `auth_sessions.${c}`),
    ];
    // The statement's text names its columns by table (so what is found here is what it reads).
    expect(read).toEqual(expect.arrayContaining(['users.suspended_at', 'auth_sessions.token_hash']));
    for (const column of read) {
      // A column the lookup reads: say here how to change it, and declare it in db/kept-generations.ts.
      expect(Object.keys(changes)).toContain(column);
      expect({ column, rises: await raises(changes[column]) }).toEqual({ column, rises: true });
    }
    for (const write of [
      sql`delete from users where false`,
      sql`truncate users cascade`,
      sql`delete from auth_sessions where false`,
      sql`truncate auth_sessions`,
    ]) {
      expect(await raises(write)).toBe(true);
    }
  });

  it('does not rise with sign-ins, the hourly touch, points, streaks or a timezone set to what it was', async () => {
    const { user, token } = await keptSession();
    const before = await generationIn(db);
    await loginAs(app, user.username, user.password); // also adopts the timezone it has: UTC
    await createUser(db);
    await db.execute(sql`update users set points = points + 10, streak = streak + 1, timezone = timezone`);
    await db.execute(
      sql`update auth_sessions set last_seen_at = last_seen_at + interval '1 hour' where token_hash = ${hashToken(token)}`,
    );
    expect(await generationIn(db)).toBe(before);
  });

  it('does not rise when the writing transaction rolls back', async () => {
    const { user } = await keptSession();
    const before = await generationIn(db);
    expect(
      await raises(sql`update users set username = username || '-rolled-back' where id = ${user.id}`),
    ).toBe(true);
    expect(await generationIn(db)).toBe(before);
  });
});
