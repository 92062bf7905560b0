import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, listeningSessions, messages, playlists, userTriggers } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { authHeader, createSignedInUser, createUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import {
  createFile,
  createPlaylist,
  createSeries,
  createTier,
  createTrigger,
  grantMembership,
  ratePlaylist,
  setSeriesPosition,
} from '../../test/library-factories.ts';

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);
type Signed = TestUser & { token: string };

let siteOwner: TestUser;
let friend: Signed;
let friendsList: { id: number; uuid: string };

beforeAll(async () => {
  siteOwner = await createUser(db, { username: 'siteowner' });
  friend = await createSignedInUser(app, { username: 'friend' });
  friendsList = await createPlaylist(db, { creatorId: friend.id, name: 'Friend list', isPublic: true });
});

const call = (method: 'GET' | 'DELETE' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });

/** An account with something in every kind of row: the export shows it, deletion removes it. */
async function busyAccount(username: string) {
  const me = await createSignedInUser(app, { username, roles: ['Verified Creator'] });
  const trigger = await createTrigger(db, { name: `${username} trigger`, creatorId: null });
  await db.insert(userTriggers).values({ userId: me.id, triggerId: trigger.id, trainingAmount: 1 });
  const file = await createFile(db, { authorId: me.id, name: `${username} track`, haptics: true });
  await storage.put(file.audioKey, Buffer.from('RIFF audio'));
  await storage.put(file.hapticsKey as string, Buffer.from('[]'));
  const list = await createPlaylist(db, { creatorId: me.id, name: `${username} list`, fileIds: [file.id] });
  await ratePlaylist(db, friendsList.id, me.id, { liked: true, favorite: true });
  const plan = await createSeries(db, {
    creatorId: siteOwner.id,
    name: 'Plan',
    playlistIds: [friendsList.id],
  });
  await setSeriesPosition(db, me.id, plan.id, 1);
  await db.insert(listeningSessions).values({
    tokenHash: `session-${username}`,
    userId: me.id,
    fileId: file.id,
    startedAt: new Date('2026-05-02T10:00:00Z'),
    endedAt: new Date('2026-05-02T10:05:00Z'),
    points: 5,
  });
  const tier = await createTier(db, { id: `tier-${username}`, creatorName: 'Studio', title: 'Gold' });
  await grantMembership(db, me.id, tier.id);
  const thread = (
    await call('POST', '/api/messages/threads', me.token, { name: null, userIds: String(friend.id) })
  ).json();
  await call('POST', '/api/messages', me.token, { threadId: thread.id, message: `hello from ${username}` });
  await call('POST', '/api/messages', friend.token, {
    threadId: thread.id,
    message: `hello back to ${username}`,
  });
  await call('PUT', '/api/user/friends', me.token, { friendId: friend.id });
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#804020' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)]), 'me.png');
  const encoded = new Response(form);
  const avatar = await app.inject({
    method: 'POST',
    url: '/api/user/upload',
    headers: { ...authHeader(me.token), 'content-type': encoded.headers.get('content-type') as string },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  expect(avatar.statusCode).toBe(200);
  return { me, file, list, thread, plan, tier };
}

/** Every row in every table that points at user `id` (found from the foreign keys to users). */
async function rowsPointingAt(id: number): Promise<Record<string, number>> {
  const result = await db.execute(sql`
    select kcu.table_name, kcu.column_name
    from information_schema.referential_constraints rc
    join information_schema.key_column_usage kcu on kcu.constraint_name = rc.constraint_name
    join information_schema.constraint_column_usage ccu on ccu.constraint_name = rc.unique_constraint_name
    where ccu.table_name = 'users' and ccu.column_name = 'id'`);
  const columns = ((result as { rows?: unknown[] }).rows ?? result) as {
    table_name: string;
    column_name: string;
  }[];
  const out: Record<string, number> = {};
  for (const { table_name, column_name } of columns) {
    const counted = await db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} = ${id}`,
    );
    const n = (((counted as { rows?: unknown[] }).rows ?? counted) as { n: number }[])[0].n;
    if (n > 0) out[`${table_name}.${column_name}`] = n;
  }
  return out;
}

describe('GET /api/user/export', () => {
  it('answers everything kept about the account as a file, and nothing of anyone else', async () => {
    const { me, file, list } = await busyAccount('exporter');
    const res = await call('GET', '/api/user/export', me.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="mesmer-exporter.json"');
    const data = res.json();
    expect(data.profile).toMatchObject({
      id: me.id,
      username: 'exporter',
      email: me.email,
      roles: ['Verified Creator'],
      settings: { censorTriggers: false, hideLockedFiles: false, vibrationOffset: 0, maxVibration: 50 },
      triggers: [{ name: 'exporter trigger', trainingAmount: 1 }],
    });
    expect(data.profile.imageURL).toMatch(/^\/avatars\//);
    expect(data.files).toEqual([expect.objectContaining({ uuid: file.uuid, name: 'exporter track' })]);
    expect(data.playlists).toEqual([
      expect.objectContaining({
        uuid: list.uuid,
        name: 'exporter list',
        files: [{ uuid: file.uuid, name: 'exporter track' }],
      }),
    ]);
    expect(data.ratings).toEqual([
      {
        playlistUuid: friendsList.uuid,
        playlistName: 'Friend list',
        liked: true,
        disliked: false,
        favorite: true,
      },
    ]);
    expect(data.planProgress).toEqual([expect.objectContaining({ planName: 'Plan', position: 1 })]);
    expect(data.listeningHistory).toEqual([
      {
        fileUuid: file.uuid,
        fileName: 'exporter track',
        startedAt: '2026-05-02T10:00:00.000Z',
        endedAt: '2026-05-02T10:05:00.000Z',
        points: 5,
      },
    ]);
    expect(data.messagesSent.map((m: { message: string }) => m.message)).toEqual(['hello from exporter']);
    expect(res.body).not.toContain('hello back to exporter');
    expect(data.friends).toEqual([expect.objectContaining({ username: 'friend', accepted: false })]);
    expect(data.blocked).toEqual([]);
    expect(data.memberships).toEqual([
      { creatorName: 'Studio', tierName: 'Gold', active: true, cancelled: false, lastVerified: null },
    ]);
    expect(res.body).not.toContain(friend.email);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/api/user/export')).statusCode).toBe(401);
  });
});

describe('DELETE /api/user', () => {
  it('deletes the account with its files, media, playlists, avatar and every row of its own; its messages stay as from a deleted user', async () => {
    const { me, file, list, thread } = await busyAccount('leaver');
    const avatarsBefore = fs
      .readdirSync(path.join(config.dataDir, 'media', 'avatars'))
      .filter((n) => n.startsWith(`${me.id}-`));
    expect(avatarsBefore).toHaveLength(2);
    expect((await rowsPointingAt(me.id))['auth_sessions.user_id']).toBe(1);
    const counts = async () => {
      const [row] = await db.select().from(playlists).where(eq(playlists.id, friendsList.id));
      return { likes: row.likes, favorites: row.favorites };
    };
    const before = await counts();

    const res = await call('DELETE', '/api/user', me.token, { password: me.password, content: 'delete' });
    expect(res.statusCode).toBe(204);

    expect(await rowsPointingAt(me.id)).toEqual({});
    expect(await db.select().from(files).where(eq(files.id, file.id))).toEqual([]);
    expect(await db.select().from(playlists).where(eq(playlists.id, list.id))).toEqual([]);
    expect(await storage.stat(file.audioKey)).toBeNull();
    expect(await storage.stat(file.hapticsKey as string)).toBeNull();
    expect(
      fs.readdirSync(path.join(config.dataDir, 'media', 'avatars')).filter((n) => n.startsWith(`${me.id}-`)),
    ).toEqual([]);
    // The friend's playlist no longer counts the like and favourite.
    expect(await counts()).toEqual({ likes: before.likes - 1, favorites: before.favorites - 1 });
    // The thread keeps the message, without a sender; the friend sees it from a deleted user.
    const kept = await db.select().from(messages).where(eq(messages.threadId, thread.id));
    expect(kept.map((m) => [m.message, m.senderId])).toEqual([
      ['hello from leaver', null],
      ['hello back to leaver', friend.id],
    ]);
    const history = (await call('GET', `/api/messages?threadId=${thread.id}`, friend.token)).json();
    expect(history.messages[0]).toMatchObject({ message: 'hello from leaver', senderId: null, sender: null });

    expect((await call('GET', '/api/user', me.token)).json().user).toBeNull();
    const login = await call('POST', '/api/token', undefined, { user: 'leaver', password: me.password });
    expect(login.statusCode).toBe(401);
  });

  it('hands the files and playlists to the site owner when asked, media kept', async () => {
    const { me, file, list } = await busyAccount('giver');
    const res = await call('DELETE', '/api/user', me.token, { password: me.password, content: 'transfer' });
    expect(res.statusCode).toBe(204);
    const [kept] = await db.select().from(files).where(eq(files.id, file.id));
    expect({ author: kept.authorId, uploader: kept.uploaderId }).toEqual({
      author: siteOwner.id,
      uploader: siteOwner.id,
    });
    const [keptList] = await db.select().from(playlists).where(eq(playlists.id, list.id));
    expect(keptList.creatorId).toBe(siteOwner.id);
    expect(await storage.stat(file.audioKey)).not.toBeNull();
    expect(await rowsPointingAt(me.id)).toEqual({});
  });

  it('refuses a wrong password (403, nothing deleted), bad input, no session and the site owner', async () => {
    const me = await createSignedInUser(app, { username: 'stayer' });
    const wrong = await call('DELETE', '/api/user', me.token, {
      password: 'not my password',
      content: 'delete',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: 'The password is not right.' });
    expect((await call('GET', '/api/user', me.token)).json().user.username).toBe('stayer');
    expect((await call('DELETE', '/api/user', me.token, { password: me.password })).json()).toMatchObject({
      field: 'content',
    });
    expect((await call('DELETE', '/api/user', me.token, { content: 'delete' })).json()).toMatchObject({
      field: 'password',
    });
    expect(
      (await call('DELETE', '/api/user', undefined, { password: 'x', content: 'delete' })).statusCode,
    ).toBe(401);
    const owner = await app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { user: 'siteowner', password: siteOwner.password },
    });
    const ownerDelete = await call('DELETE', '/api/user', owner.json().token, {
      password: siteOwner.password,
      content: 'delete',
    });
    expect(ownerDelete.statusCode).toBe(403);
  });
});
