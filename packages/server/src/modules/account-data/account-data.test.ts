import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authSessions,
  files,
  listeningSessions,
  lovenseConnections,
  lovenseToys,
  messages,
  offlineCopies,
  patreonLinks,
  playlists,
  uploads,
  users,
  userTriggers,
} from '../../db/schema/index.ts';
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
  // The friend's own offline copy, toy and links: never part of anyone else's export.
  const friendsTrack = await createFile(db, { authorId: friend.id, name: 'Friend track' });
  await pairDevices(friend.id, 'friend');
  await db
    .insert(offlineCopies)
    .values({ userId: friend.id, fileId: friendsTrack.id, copiedAt: new Date('2026-05-04T08:00:00Z') });
});

/** A Lovense pairing (secret kept hashed), its app and one toy, and a Patreon link with its tokens. */
async function pairDevices(userId: number, name: string) {
  await db
    .update(users)
    .set({ lovenseToken: `lovense-secret-hash-${name}` })
    .where(eq(users.id, userId));
  await db.insert(lovenseConnections).values({
    userId,
    domain: `192-168-1-44.lovense.club`,
    httpsPort: 30010,
    httpPort: 34567,
    wsPort: null,
    wssPort: 34568,
    appType: 'remote',
    platform: 'android',
    appVersion: '6.4.0',
    updatedAt: new Date('2026-05-03T09:00:00Z'),
  });
  await db.insert(lovenseToys).values({
    userId,
    toyId: `toy-${name}`,
    name: 'lush',
    nickName: `${name}'s Lush`,
    connected: true,
    updatedAt: new Date('2026-05-03T09:00:00Z'),
  });
  await db.insert(patreonLinks).values({
    userId,
    patreonUserId: `patreon-${name}`,
    patreonName: `${name} on Patreon`,
    accessToken: `patreon-access-${name}`,
    refreshToken: `patreon-refresh-${name}`,
    expiresAt: new Date('2026-06-01T00:00:00Z'),
    lastVerified: new Date('2026-05-03T10:00:00Z'),
    linkedAt: new Date('2026-05-01T10:00:00Z'),
  });
}

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
  const myPlan = await createSeries(db, {
    creatorId: me.id,
    name: `${username} plan`,
    playlistIds: [list.id],
  });
  const requested = await createTrigger(db, {
    name: `${username} request`,
    description: 'asked for',
    creatorId: me.id,
    pending: true,
  });
  await db
    .insert(offlineCopies)
    .values({ userId: me.id, fileId: file.id, copiedAt: new Date('2026-05-02T09:00:00Z') });
  await pairDevices(me.id, username);
  const report = await call('POST', '/api/reports', me.token, {
    subjectType: 'playlist',
    subjectId: friendsList.id,
    reason: 'spam in the description',
  });
  expect(report.statusCode).toBe(200);
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
  return { me, file, list, thread, plan, tier, myPlan, requested };
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
    const { me, file, list, thread, myPlan, requested } = await busyAccount('exporter');
    await db.insert(uploads).values({
      uuid: '0b6f1c9e-7d3a-4f57-9a51-3d2c1e0f4a10',
      userId: me.id,
      fileName: 'half sent.wav',
      totalChunks: 4,
      storageKey: 'uploads/0b6f1c9e-7d3a-4f57-9a51-3d2c1e0f4a10',
      storageUploadId: 'multipart-secret-id',
      createdAt: new Date('2026-05-04T12:00:00Z'),
    });
    const res = await call('GET', '/api/user/export', me.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="mesmer-exporter.json"');
    const data = res.json();
    expect(data.profile).toMatchObject({
      id: me.id,
      username: 'exporter',
      email: me.email,
      roles: ['Verified Creator'],
      settings: {
        censorTriggers: false,
        hideLockedFiles: false,
        insightsOptOut: false,
        vibrationOffset: 0,
        maxVibration: 50,
      },
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
        offline: false,
        creditedMs: 0,
        source: null,
        toyConnected: null,
      },
    ]);
    expect(data.listeningDays).toEqual([]);
    expect(data.plans).toEqual([
      {
        uuid: myPlan.uuid,
        name: 'exporter plan',
        description: '',
        dateCreated: '2026-05-01T00:00:00.000Z',
        playlists: [{ uuid: list.uuid, name: 'exporter list' }],
      },
    ]);
    expect(data.triggersCreated).toEqual([
      {
        uuid: requested.uuid,
        name: 'exporter request',
        description: 'asked for',
        pending: true,
        createdAt: requested.createdAt.toISOString(),
      },
    ]);
    expect(data.offlineCopies).toEqual([
      { fileUuid: file.uuid, fileName: 'exporter track', copiedAt: '2026-05-02T09:00:00.000Z' },
    ]);
    expect(data.threads).toEqual([{ id: thread.id, name: null, hiddenAt: null }]);
    expect(data.patreon).toEqual({
      patreonUserId: 'patreon-exporter',
      patreonName: 'exporter on Patreon',
      linkedAt: '2026-05-01T10:00:00.000Z',
      lastVerified: '2026-05-03T10:00:00.000Z',
    });
    expect(data.lovense).toEqual({
      connection: {
        domain: '192-168-1-44.lovense.club',
        httpsPort: 30010,
        httpPort: 34567,
        wsPort: null,
        wssPort: 34568,
        appType: 'remote',
        platform: 'android',
        appVersion: '6.4.0',
        updatedAt: '2026-05-03T09:00:00.000Z',
      },
      toys: [
        {
          id: 'toy-exporter',
          name: 'lush',
          nickName: "exporter's Lush",
          connected: true,
          updatedAt: '2026-05-03T09:00:00.000Z',
        },
      ],
    });
    expect(data.reportsFiled).toEqual([
      {
        subjectType: 'playlist',
        subjectId: friendsList.id,
        reason: 'spam in the description',
        createdAt: expect.any(String),
      },
    ]);
    const [session] = await db.select().from(authSessions).where(eq(authSessions.userId, me.id));
    expect(data.signInSessions).toEqual([
      {
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: session.lastSeenAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
      },
    ]);
    expect(data.uploadsInProgress).toEqual([
      {
        uuid: '0b6f1c9e-7d3a-4f57-9a51-3d2c1e0f4a10',
        fileName: 'half sent.wav',
        state: 'receiving',
        createdAt: '2026-05-04T12:00:00.000Z',
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
    // Another user's rows are not in it.
    for (const theirs of ['toy-friend', 'patreon-friend', 'Friend track'])
      expect(res.body).not.toContain(theirs);
    // No token or secret, nor its hash.
    for (const secret of [
      'lovense-secret-hash',
      'patreon-access-',
      'patreon-refresh-',
      me.token,
      session.tokenHash,
      `session-exporter`,
      'multipart-secret-id',
    ]) {
      expect(res.body).not.toContain(secret);
    }
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
    expect(await rowsPointingAt(me.id)).toMatchObject({
      'auth_sessions.user_id': 1,
      'offline_copies.user_id': 1,
      'lovense_connections.user_id': 1,
      'lovense_toys.user_id': 1,
      'patreon_links.user_id': 1,
      'reports.reporter_id': 1,
    });
    const counts = async () => {
      const [row] = await db.select().from(playlists).where(eq(playlists.id, friendsList.id));
      return { likes: row.likes, favorites: row.favorites };
    };
    const before = await counts();

    const res = await call('DELETE', '/api/user', me.token, { password: me.password, content: 'delete' });
    expect(res.statusCode).toBe(204);

    expect(await rowsPointingAt(me.id)).toEqual({});
    // The offline copies, the Lovense app and toys and the Patreon link went with it; the friend's stay.
    for (const table of [offlineCopies, lovenseToys, lovenseConnections, patreonLinks]) {
      expect(await db.select().from(table).where(eq(table.userId, me.id))).toEqual([]);
      expect(await db.select().from(table).where(eq(table.userId, friend.id))).toHaveLength(1);
    }
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

  it('hands the files and playlists to the former-member account when asked, media kept', async () => {
    const { me, file, list } = await busyAccount('giver');
    const res = await call('DELETE', '/api/user', me.token, { password: me.password, content: 'transfer' });
    expect(res.statusCode).toBe(204);
    const [formerMember] = await db.select().from(users).where(eq(users.username, 'Former member'));
    expect(formerMember).toMatchObject({ passwordHash: '!', suspendedAt: expect.any(Date) });
    const [kept] = await db.select().from(files).where(eq(files.id, file.id));
    expect({ author: kept.authorId, uploader: kept.uploaderId, isPublic: kept.isPublic }).toEqual({
      author: formerMember.id,
      uploader: formerMember.id,
      isPublic: false,
    });
    const [keptList] = await db.select().from(playlists).where(eq(playlists.id, list.id));
    expect(keptList).toMatchObject({ creatorId: formerMember.id, isPublic: false, isCore: false });
    expect(await storage.stat(file.audioKey)).not.toBeNull();
    expect(await rowsPointingAt(me.id)).toEqual({});
  });

  describe('handed-over content never speaks for the site', () => {
    let moderator: Signed;
    let listId: number;
    let fileId: number;
    let fileUuid: string;
    const bait = 'Mesmer staff: send your password to mesmer-help@example.com';
    beforeAll(async () => {
      moderator = await createSignedInUser(app, { username: 'reviewer', roles: ['Moderator'] });
      const me = await createSignedInUser(app, { username: 'impostor', roles: ['Verified Creator'] });
      const track = await createFile(db, { authorId: me.id, name: bait, isPublic: true });
      fileId = track.id;
      fileUuid = track.uuid;
      const made = await call('POST', '/api/playlists', me.token, {
        name: bait,
        expLevel: 1,
        isPublic: true,
      });
      expect(made.statusCode, made.body).toBe(201);
      listId = made.json().id;
      const res = await call('DELETE', '/api/user', me.token, { password: me.password, content: 'transfer' });
      expect(res.statusCode).toBe(204);
    });
    const namesIn = async (url: string, token?: string) =>
      (await call('GET', url, token)).json().playlists.map((p: { name: string }) => p.name);

    it('is not official, not core, not listed, and attributed to a former member', async () => {
      const [row] = await db.select().from(playlists).where(eq(playlists.id, listId));
      expect(row).toMatchObject({ isPublic: false, isCore: false });
      expect(row.creatorId).not.toBe(siteOwner.id);
      for (const url of ['/api/playlists?official=true', '/api/playlists', '/api/playlists/recent']) {
        expect(await namesIn(url), url).not.toContain(bait);
      }
      expect(await namesIn('/api/playlists?official=true', moderator.token)).not.toContain(bait);
      // Staff (READ_ALL_FILES) see it to review it, under the former member's name.
      const seen = await call('GET', `/api/playlists?official=false&searchQuery=staff`, moderator.token);
      expect(seen.json().playlists).toEqual([
        expect.objectContaining({
          id: listId,
          name: bait,
          isPublic: false,
          isCore: false,
          creator: expect.objectContaining({ username: 'Former member' }),
        }),
      ]);
      const [track] = await db.select().from(files).where(eq(files.id, fileId));
      expect(track).toMatchObject({ authorId: row.creatorId, uploaderId: row.creatorId, isPublic: false });
      const unlisted = await call('GET', `/api/files?uuid=${fileUuid}`);
      expect(unlisted.statusCode).toBe(404);
    });

    it('is published by staff holding WRITE_ALL_FILES, still not official; not by anyone else', async () => {
      const stranger = await createSignedInUser(app, { username: 'stranger', roles: ['Verified Creator'] });
      const refused = await call('PUT', '/api/playlists', stranger.token, { id: listId, isPublic: true });
      expect(refused.statusCode).toBe(404);
      expect(
        (await call('PUT', '/api/playlists', undefined, { id: listId, isPublic: true })).statusCode,
      ).toBe(401);
      const published = await call('PUT', '/api/playlists', moderator.token, { id: listId, isPublic: true });
      expect(published.statusCode, published.body).toBe(200);
      expect(published.json().playlist).toMatchObject({
        id: listId,
        isPublic: true,
        isCore: false,
        creator: expect.objectContaining({ username: 'Former member' }),
      });
      const [row] = await db.select().from(playlists).where(eq(playlists.id, listId));
      expect(row.isPublic).toBe(true);
      expect(await namesIn('/api/playlists?official=false')).toContain(bait);
      expect(await namesIn('/api/playlists?official=true')).not.toContain(bait);
      // Now public, a creator without WRITE_ALL_FILES sees it but may not change it.
      const notTheirs = await call('PUT', '/api/playlists', stranger.token, { id: listId, isPublic: false });
      expect(notTheirs.statusCode).toBe(403);
      expect(notTheirs.json()).toEqual({ error: 'Only the creator of this playlist can change it.' });
      // The file is published with the files' own staff edit.
      const file = await call('PUT', '/api/files', moderator.token, {
        id: fileId,
        fileType: 2,
        isPublic: true,
      });
      expect(file.statusCode, file.body).toBe(200);
      expect((await db.select().from(files).where(eq(files.id, fileId)))[0]?.isPublic).toBe(true);
      expect((await call('GET', `/api/files?uuid=${fileUuid}`)).json().files).toEqual([
        expect.objectContaining({
          id: fileId,
          author: expect.objectContaining({ username: 'Former member' }),
        }),
      ]);
    });

    it('keeps one former-member account for every deletion', async () => {
      expect(
        await db.select({ id: users.id }).from(users).where(eq(users.username, 'Former member')),
      ).toHaveLength(1);
    });
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
