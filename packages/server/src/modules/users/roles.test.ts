import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { roles, userRoles } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

// User id 1 is the site owner; create it first so the users below are ordinary.
const admin = await createSignedInUser(app, { username: 'SiteOwner', roles: ['Administrator'] });
const moderator = await createSignedInUser(app, { roles: ['Moderator'] });

const badge = (name: string) => ({ name, showBadge: true, textColor: '#000000', background: '#FC688F' });

const grant = (userId: number | string, role: string, token?: string) =>
  app.inject({
    method: 'PUT',
    url: `/api/users/${userId}/roles`,
    payload: { role },
    headers: token ? authHeader(token) : {},
  });
const revoke = (userId: number | string, role: string, token?: string) =>
  app.inject({
    method: 'DELETE',
    url: `/api/users/${userId}/roles`,
    query: { role },
    headers: token ? authHeader(token) : {},
  });

/** The role names stored for a user, in role id order. */
async function storedRoles(userId: number): Promise<string[]> {
  const rows = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(roles.id);
  return rows.map((r) => r.name);
}

async function self(token: string) {
  const res = await app.inject({ method: 'GET', url: '/api/user', headers: authHeader(token) });
  return res.json().user as { roles: { name: string }[]; permissions: string[] };
}

describe('PUT /api/users/:id/roles {role}', () => {
  it('gives the role, answers the roles and stores one row', async () => {
    const user = await createUser(db);
    const res = await grant(user.id, 'Verified Creator', admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ roles: [badge('Verified Creator')] });
    expect(await storedRoles(user.id)).toEqual(['Verified Creator']);

    const second = await grant(user.id, 'Moderator', admin.token);
    expect(second.json()).toEqual({ roles: [badge('Moderator'), badge('Verified Creator')] });
    expect(await storedRoles(user.id)).toEqual(['Moderator', 'Verified Creator']);
  });

  it('is idempotent: giving a held role again changes nothing', async () => {
    const user = await createUser(db, { roles: ['Contributor'] });
    const res = await grant(user.id, 'Contributor', admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ roles: [badge('Contributor')] });
    const rows = await db.select().from(userRoles).where(eq(userRoles.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('shows on the public profile', async () => {
    const user = await createUser(db);
    await grant(user.id, 'Music Creator', admin.token);
    const res = await app.inject({ method: 'GET', url: `/api/user?username=${user.username}` });
    expect(res.json().user.roles).toEqual([badge('Music Creator')]);
  });

  it('lets a new creator use the permission on the very next request of the same session', async () => {
    const user = await createSignedInUser(app);
    const request = () =>
      app.inject({
        method: 'POST',
        url: '/api/triggers',
        payload: { name: `Wish ${user.id}`, description: '' },
        headers: authHeader(user.token),
      });
    expect((await request()).statusCode).toBe(403);
    expect((await self(user.token)).permissions).toEqual([]);

    expect((await grant(user.id, 'Verified Creator', admin.token)).statusCode).toBe(200);

    const me = await self(user.token);
    expect(me.roles.map((r) => r.name)).toEqual(['Verified Creator']);
    expect(me.permissions).toEqual(['UPLOAD_ALL_FILES', 'REQUEST_TRIGGERS']);
    const res = await request();
    expect(res.statusCode).toBe(201);
    expect(res.json().trigger).toMatchObject({ pending: true });
  });

  it('changes what the user sees at once, kept answers included (a new moderator reads private files)', async () => {
    const author = await createUser(db);
    const hidden = await createFile(db, { authorId: author.id, isPublic: false, name: 'Hidden Draft' });
    const user = await createSignedInUser(app);
    const list = async () => {
      const res = await app.inject({ method: 'GET', url: '/api/files', headers: authHeader(user.token) });
      return (res.json().files as { id: number }[]).map((f) => f.id);
    };
    expect(await list()).not.toContain(hidden.id);
    expect(await list()).not.toContain(hidden.id); // now kept by the read cache

    await grant(user.id, 'Moderator', admin.token);
    expect(await list()).toContain(hidden.id);

    await revoke(user.id, 'Moderator', admin.token);
    expect(await list()).not.toContain(hidden.id);
  });

  it('answers 400 naming the role for an unknown role or Administrator, storing nothing', async () => {
    const user = await createUser(db);
    for (const role of ['Wizard', 'Administrator', 'verified creator', '']) {
      const res = await grant(user.id, role, admin.token);
      expect(res.statusCode, role).toBe(400);
      expect(res.json()).toEqual({
        error: 'role: must be one of Verified Creator, Music Creator, Contributor, Moderator',
        field: 'role',
      });
    }
    expect(await storedRoles(user.id)).toEqual([]);
  });

  it('answers 400 naming the role when there is none, for PUT and DELETE', async () => {
    const user = await createUser(db, { roles: ['Contributor'] });
    const put = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}/roles`,
      payload: {},
      headers: authHeader(admin.token),
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().field).toBe('role');
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/users/${user.id}/roles`,
      headers: authHeader(admin.token),
    });
    expect(del.statusCode).toBe(400);
    expect(del.json().field).toBe('role');
    expect((await revoke(user.id, 'Wizard', admin.token)).json().field).toBe('role');
    expect(await storedRoles(user.id)).toEqual(['Contributor']);
  });

  it('answers 400 naming the id for an id that is not one', async () => {
    for (const id of ['abc', '0', '99999999999']) {
      const res = await grant(id, 'Contributor', admin.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('id');
    }
  });

  it('answers 401 signed out and 403 to anyone but an administrator, storing nothing', async () => {
    const user = await createUser(db);
    const signedOut = await grant(user.id, 'Contributor');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ error: 'You need to be logged in to do that.' });

    const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
    for (const token of [moderator.token, creator.token]) {
      const res = await grant(user.id, 'Contributor', token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'You are not allowed to do that.' });
    }
    // Not even on themselves.
    expect((await grant(creator.id, 'Moderator', creator.token)).statusCode).toBe(403);
    expect(await storedRoles(user.id)).toEqual([]);
    expect(await storedRoles(creator.id)).toEqual(['Verified Creator']);
  });

  it('answers 404 for an unknown user (and 403 before that to non-administrators)', async () => {
    const res = await grant(999_999, 'Contributor', admin.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'User not found.' });
    expect((await grant(999_999, 'Contributor', moderator.token)).statusCode).toBe(403);
    const rows = await db.select().from(userRoles).where(eq(userRoles.userId, 999_999));
    expect(rows).toEqual([]);
  });
});

describe('DELETE /api/users/:id/roles?role=', () => {
  it('takes the role, answers the roles left and removes only that row', async () => {
    const user = await createUser(db, { roles: ['Moderator', 'Contributor'] });
    const res = await revoke(user.id, 'Moderator', admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ roles: [badge('Contributor')] });
    expect(await storedRoles(user.id)).toEqual(['Contributor']);
  });

  it('is idempotent: taking a role the user does not hold changes nothing', async () => {
    const user = await createUser(db, { roles: ['Contributor'] });
    for (let i = 0; i < 2; i++) {
      const res = await revoke(user.id, 'Music Creator', admin.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ roles: [badge('Contributor')] });
    }
    expect(await storedRoles(user.id)).toEqual(['Contributor']);
  });

  it('takes the permission at once when the last upload role goes', async () => {
    const user = await createSignedInUser(app, { roles: ['Music Creator', 'Contributor'] });
    const request = (n: number) =>
      app.inject({
        method: 'POST',
        url: '/api/triggers',
        payload: { name: `Ask ${user.id} ${n}`, description: '' },
        headers: authHeader(user.token),
      });
    expect((await request(1)).statusCode).toBe(201);

    await revoke(user.id, 'Music Creator', admin.token);
    expect((await self(user.token)).permissions).toEqual(['UPLOAD_PRIVATE_FILES', 'REQUEST_TRIGGERS']);
    expect((await request(2)).statusCode).toBe(201);

    const res = await revoke(user.id, 'Contributor', admin.token);
    expect(res.json()).toEqual({ roles: [] });
    const me = await self(user.token);
    expect(me).toMatchObject({ roles: [], permissions: [] });
    expect((await request(3)).statusCode).toBe(403);
  });

  it('cannot take Administrator: 400 naming the role, and the administrator keeps it', async () => {
    const res = await revoke(admin.id, 'Administrator', admin.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('role');
    expect(await storedRoles(admin.id)).toEqual(['Administrator']);
  });

  it('answers 401, 403 and 404 as PUT does, leaving the roles', async () => {
    const user = await createUser(db, { roles: ['Contributor'] });
    expect((await revoke(user.id, 'Contributor')).statusCode).toBe(401);
    expect((await revoke(user.id, 'Contributor', moderator.token)).statusCode).toBe(403);
    expect((await revoke(999_999, 'Contributor', admin.token)).statusCode).toBe(404);
    expect(await storedRoles(user.id)).toEqual(['Contributor']);
  });
});
