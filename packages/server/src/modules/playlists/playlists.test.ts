import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { playlistFiles, playlistRatings, playlists } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import {
  createFile,
  createPlaylist,
  createSeries,
  createTier,
  createTrigger,
  ratePlaylist,
} from '../../test/library-factories.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const day = (n: number) => new Date(Date.UTC(2026, 4, n));
const MIN = 60_000;

type Signed = TestUser & { token: string };
let owner: Signed;
let alice: Signed;
let bob: Signed;
let moderator: Signed;
const f: Record<string, Awaited<ReturnType<typeof createFile>>> = {};
const p: Record<string, Awaited<ReturnType<typeof createPlaylist>>> = {};
let trigger: Awaited<ReturnType<typeof createTrigger>>;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  alice = await createSignedInUser(app, { username: 'alice', roles: ['Verified Creator'] });
  bob = await createSignedInUser(app, { username: 'bob' });
  moderator = await createSignedInUser(app, { username: 'moddy', roles: ['Moderator'] });
  await createTier(db, { id: 't1', creatorName: 'Mesmer', rank: 1 });
  trigger = await createTrigger(db, { name: 'Sleep Now', creatorId: owner.id });

  f.pub1 = await createFile(db, {
    name: 'Pub One',
    authorId: owner.id,
    duration: 10 * MIN,
    haptics: true,
    warnings: ['Binaural beats.'],
    triggers: [{ id: trigger.id, trains: true }],
  });
  f.pub2 = await createFile(db, {
    name: 'Pub Two',
    authorId: owner.id,
    duration: 20 * MIN,
    tierIds: ['t1'],
    warnings: ['Binaural beats.', 'Very deep.'],
  });
  f.alicePrivate = await createFile(db, {
    name: 'Alice Private',
    authorId: alice.id,
    duration: 7 * MIN,
    isPublic: false,
    userUploaded: true,
  });
  f.pub3 = await createFile(db, { name: 'Pub Three', authorId: alice.id, duration: 5 * MIN });
  f.pub4 = await createFile(db, { name: 'Pub Four', authorId: owner.id, duration: 3 * MIN });
  f.bobPrivate = await createFile(db, { name: 'Bob Private', authorId: bob.id, isPublic: false });

  p.core = await createPlaylist(db, {
    name: 'Core Basics',
    creatorId: owner.id,
    isCore: true,
    expLevel: 1,
    dateCreated: day(1),
    fileIds: [f.pub1.id, f.pub2.id],
  });
  p.aliceMix = await createPlaylist(db, {
    name: 'Alice Mix',
    description: 'Dreams of the ocean.',
    creatorId: alice.id,
    expLevel: 2,
    dateCreated: day(2),
    fileIds: [f.pub1.id, f.alicePrivate.id, f.pub3.id],
    disabledFileIds: [f.pub3.id],
  });
  p.aliceSecret = await createPlaylist(db, {
    name: 'Alice Secret',
    creatorId: alice.id,
    isPublic: false,
    expLevel: 3,
    dateCreated: day(3),
    fileIds: [f.pub3.id],
  });
  p.bobBeats = await createPlaylist(db, {
    name: 'Bob Beats',
    creatorId: bob.id,
    expLevel: 4,
    dateCreated: day(4),
  });
  p.planDay = await createPlaylist(db, {
    name: 'Plan Day 1',
    creatorId: owner.id,
    isCore: true,
    expLevel: 1,
    dateCreated: day(5),
    fileIds: [f.pub1.id],
  });
  await createSeries(db, { name: 'Plan', creatorId: owner.id, playlistIds: [p.planDay.id] });
  await ratePlaylist(db, p.aliceMix.id, bob.id, { liked: true });
  await ratePlaylist(db, p.aliceMix.id, moderator.id, { disliked: true, favorite: true });
  await ratePlaylist(db, p.bobBeats.id, alice.id, { favorite: true });
  await ratePlaylist(db, p.bobBeats.id, owner.id, { favorite: true });
});

const headers = (token?: string) => (token ? authHeader(token) : {});
const list = (query: string, token?: string) =>
  app.inject({ method: 'GET', url: `/api/playlists${query ? `?${query}` : ''}`, headers: headers(token) });
async function names(query: string, token?: string) {
  const res = await list(query, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().playlists.map((x: { name: string }) => x.name);
}
const one = async (id: number, token?: string) => (await list(`ids=${id}`, token)).json().playlists[0];

describe('GET /api/playlists', () => {
  it('lists visible playlists, newest first, with the total', async () => {
    const res = await list('');
    expect(res.json().totalItems).toBe(4);
    expect(await names('')).toEqual(['Plan Day 1', 'Bob Beats', 'Alice Mix', 'Core Basics']);
    expect(await names('', alice.token)).toEqual([
      'Plan Day 1',
      'Bob Beats',
      'Alice Secret',
      'Alice Mix',
      'Core Basics',
    ]);
    expect(await names('', bob.token)).toHaveLength(4);
    expect(await names('', moderator.token)).toHaveLength(5);
  });

  it('sorts by every sort key in both directions', async () => {
    expect(await names('sort=name&sortDir=asc')).toEqual([
      'Alice Mix',
      'Bob Beats',
      'Core Basics',
      'Plan Day 1',
    ]);
    expect(await names('sort=name&sortDir=desc')).toEqual([
      'Plan Day 1',
      'Core Basics',
      'Bob Beats',
      'Alice Mix',
    ]);
    expect(await names('sort=datecreated&sortDir=asc')).toEqual([
      'Core Basics',
      'Alice Mix',
      'Bob Beats',
      'Plan Day 1',
    ]);
    expect(await names('sort=likes&sortDir=desc')).toEqual([
      'Alice Mix',
      'Plan Day 1',
      'Bob Beats',
      'Core Basics',
    ]);
    expect(await names('sort=favorites&sortDir=desc')).toEqual([
      'Bob Beats',
      'Alice Mix',
      'Plan Day 1',
      'Core Basics',
    ]);
    expect(await names('sort=favorites&sortDir=asc')).toEqual([
      'Core Basics',
      'Plan Day 1',
      'Alice Mix',
      'Bob Beats',
    ]);
    expect(await names('sort=explevel&sortDir=asc')).toEqual([
      'Core Basics',
      'Plan Day 1',
      'Alice Mix',
      'Bob Beats',
    ]);
  });

  it('pages, keeping the total', async () => {
    const body = (await list('pageSize=2&pageOffset=1')).json();
    expect(body.totalItems).toBe(4);
    expect(body.playlists.map((x: { name: string }) => x.name)).toEqual(['Bob Beats', 'Alice Mix']);
    expect((await list('pageSize=2&pageOffset=10')).json()).toEqual({ playlists: [], totalItems: 4 });
  });

  it('filters by core, series, official, creator and visibility', async () => {
    expect(await names('core=true')).toEqual(['Plan Day 1', 'Core Basics']);
    expect(await names('core=false')).toEqual(['Bob Beats', 'Alice Mix']);
    expect(await names('series=false')).toEqual(['Bob Beats', 'Alice Mix', 'Core Basics']);
    expect(await names('series=true')).toEqual(['Plan Day 1']);
    expect(await names('official=true')).toEqual(['Plan Day 1', 'Core Basics']);
    expect(await names('official=false')).toEqual(['Bob Beats', 'Alice Mix']);
    expect(await names(`user=${alice.id}`)).toEqual(['Alice Mix']);
    expect(await names(`user=${alice.id}`, alice.token)).toEqual(['Alice Secret', 'Alice Mix']);
    expect(await names(`creator=${alice.id}`, alice.token)).toEqual(['Alice Secret', 'Alice Mix']);
    expect(await names('isPublic=false', alice.token)).toEqual(['Alice Secret']);
    expect(await names('isPublic=false')).toEqual([]);
    expect(await names('public=true', alice.token)).toHaveLength(4);
    expect(await names('expLevels=1,4')).toEqual(['Plan Day 1', 'Bob Beats', 'Core Basics']);
    expect(await names(`ids=${p.core.id},${p.aliceSecret.id}`)).toEqual(['Core Basics']);
  });

  it("filters by the viewer's favourites and likes, which need a session", async () => {
    expect(await names('favorited=true', alice.token)).toEqual(['Bob Beats']);
    expect(await names('favorited=true', bob.token)).toEqual([]);
    expect(await names('liked=true', bob.token)).toEqual(['Alice Mix']);
    expect((await list('favorited=true')).statusCode).toBe(401);
    expect((await list('liked=true')).statusCode).toBe(401);
  });

  it('searches names and descriptions, and finds playlists holding every given file', async () => {
    expect(await names('searchQuery=ocean')).toEqual(['Alice Mix']);
    expect(await names('searchQuery=beat')).toEqual(['Bob Beats']);
    expect(await names(`includeFiles=${f.pub1.id}`)).toEqual(['Plan Day 1', 'Alice Mix', 'Core Basics']);
    expect(await names(`includeFiles=${f.pub1.id},${f.pub3.id}`)).toEqual(['Alice Mix']);
    expect(await names(`includeFiles=${f.pub3.id}`, alice.token)).toEqual(['Alice Secret', 'Alice Mix']);
  });

  it('answers one playlist by uuid, 404 when the viewer may not see it', async () => {
    expect((await list(`uuid=${p.core.uuid}`)).json().playlists[0].name).toBe('Core Basics');
    const hidden = await list(`uuid=${p.aliceSecret.uuid}`, bob.token);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'Playlist not found.' });
    expect((await list(`uuid=${p.aliceSecret.uuid}`, alice.token)).statusCode).toBe(200);
  });

  it('answers every field, with totals over the files the viewer sees', async () => {
    const mix = await one(p.aliceMix.id);
    expect({ ...mix, files: undefined }).toEqual({
      id: p.aliceMix.id,
      uuid: p.aliceMix.uuid,
      name: 'Alice Mix',
      description: 'Dreams of the ocean.',
      expLevel: 2,
      isPublic: true,
      isCore: false,
      creator: { id: alice.id, username: 'alice' },
      dateCreated: '2026-05-02T00:00:00.000Z',
      fileIds: [f.pub1.id, f.pub3.id],
      files: undefined,
      fileCount: 2,
      likes: 1,
      dislikes: 1,
      favorites: 1,
      totalDuration: 10 * MIN,
      hapticsPercent: 50,
      hasPatreonFiles: false,
      warnings: ['Binaural beats.'],
      triggers: [{ id: trigger.id, uuid: trigger.uuid, name: 'Sleep Now' }],
    });
    expect(mix.files.map((x: { name: string; disabled: boolean }) => [x.name, x.disabled])).toEqual([
      ['Pub One', false],
      ['Pub Three', true],
    ]);
    const forUploader = await one(p.aliceMix.id, alice.token);
    expect(forUploader.files.map((x: { name: string }) => x.name)).toEqual([
      'Pub One',
      'Alice Private',
      'Pub Three',
    ]);
    expect(forUploader).toMatchObject({ fileCount: 3, totalDuration: 17 * MIN, hapticsPercent: 33 });
  });

  it('marks patron files and locks them for viewers without the tier', async () => {
    const core = await one(p.core.id);
    expect(core).toMatchObject({
      hasPatreonFiles: true,
      totalDuration: 30 * MIN,
      hapticsPercent: 50,
      warnings: ['Binaural beats.', 'Very deep.'],
    });
    expect(core.files[1]).toMatchObject({ name: 'Pub Two', isLocked: true, audioURL: null });
  });

  it('leaves files out with simple=true but keeps ids and totals', async () => {
    const body = (await list(`ids=${p.core.id}&simple=true`)).json();
    expect(body.playlists[0]).toMatchObject({
      files: [],
      fileIds: [f.pub1.id, f.pub2.id],
      totalDuration: 30 * MIN,
    });
  });

  it('answers the same totals and ids with simple=true as with every file, for every viewer', async () => {
    for (const token of [undefined, alice.token, bob.token, moderator.token]) {
      const full = (await list('pageSize=100', token)).json();
      const simple = (await list('pageSize=100&simple=true', token)).json();
      expect(full.playlists.length).toBeGreaterThan(0);
      expect(simple).toEqual({
        ...full,
        playlists: full.playlists.map((playlist: object) => ({ ...playlist, files: [] })),
      });
    }
  });

  it('rejects bad input naming the field', async () => {
    for (const [query, field] of [
      ['sort=random', 'sort'],
      ['sortDir=sideways', 'sortDir'],
      ['expLevels=x', 'expLevels'],
      ['pageSize=500', 'pageSize'],
      ['core=perhaps', 'core'],
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field, query).toBe(field);
    }
  });
});

describe('GET /api/playlists/recent', () => {
  it('answers the newest public community playlists without files', async () => {
    const body = (await app.inject({ method: 'GET', url: '/api/playlists/recent' })).json();
    expect(body.playlists.map((x: { name: string }) => x.name)).toEqual(['Bob Beats', 'Alice Mix']);
    expect(body.playlists[1].files).toEqual([]);
  });
});

describe('POST /api/playlists', () => {
  const create = (payload: unknown, token?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/playlists',
      payload: payload as object,
      headers: headers(token),
    });

  it('creates a private playlist for the signed-in user', async () => {
    const res = await create({ name: 'My Evening', description: 'Calm.', expLevel: 2 }, bob.token);
    expect(res.statusCode).toBe(201);
    const { id, uuid } = res.json();
    const [row] = await db.select().from(playlists).where(eq(playlists.id, id));
    expect(row).toMatchObject({
      uuid,
      name: 'My Evening',
      description: 'Calm.',
      expLevel: 2,
      isPublic: false,
      isCore: false,
      creatorId: bob.id,
      dateCreated: clock.now(),
    });
  });

  it('lets only the site owner create core playlists, which start public', async () => {
    const denied = await create({ name: 'Fake Core', expLevel: 1, isCore: true }, bob.token);
    expect(denied.statusCode).toBe(403);
    const res = await create({ name: 'Real Core', expLevel: 1, isCore: true }, owner.token);
    expect(res.statusCode).toBe(201);
    const [row] = await db.select().from(playlists).where(eq(playlists.id, res.json().id));
    expect(row).toMatchObject({ isCore: true, isPublic: true });
  });

  it('needs a session and valid fields', async () => {
    expect((await create({ name: 'x', expLevel: 1 })).statusCode).toBe(401);
    const badLevel = await create({ name: 'x', expLevel: 5 }, bob.token);
    expect(badLevel.statusCode).toBe(400);
    expect(badLevel.json().field).toBe('expLevel');
    const noName = await create({ name: ' ', expLevel: 1 }, bob.token);
    expect(noName.json()).toEqual({ error: 'name: Name is required.', field: 'name' });
  });
});

describe('PUT /api/playlists', () => {
  const update = (payload: unknown, token?: string) =>
    app.inject({ method: 'PUT', url: '/api/playlists', payload: payload as object, headers: headers(token) });
  const entries = (id: number) =>
    db
      .select({ fileId: playlistFiles.fileId, disabled: playlistFiles.disabled })
      .from(playlistFiles)
      .where(eq(playlistFiles.playlistId, id))
      .orderBy(asc(playlistFiles.position));

  it('lets the creator change fields and the ordered files', async () => {
    const target = await createPlaylist(db, { name: 'Editable', creatorId: alice.id, fileIds: [f.pub1.id] });
    const res = await update(
      {
        id: target.id,
        name: 'Edited',
        description: 'New words.',
        expLevelId: 3,
        isPublic: false,
        fileIds: [f.pub3.id, f.alicePrivate.id, f.pub1.id, f.pub3.id],
        disabledFileIds: [f.pub1.id],
      },
      alice.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().playlist).toMatchObject({
      name: 'Edited',
      description: 'New words.',
      expLevel: 3,
      isPublic: false,
      fileIds: [f.pub3.id, f.alicePrivate.id, f.pub1.id, f.pub3.id],
      totalDuration: 17 * MIN,
    });
    expect(await entries(target.id)).toEqual([
      { fileId: f.pub3.id, disabled: false },
      { fileId: f.alicePrivate.id, disabled: false },
      { fileId: f.pub1.id, disabled: true },
      { fileId: f.pub3.id, disabled: false },
    ]);
    // Appending keeps the disabled flags of the files that stay.
    const appended = await update({ id: target.id, fileIds: [f.pub3.id, f.pub1.id, f.pub4.id] }, alice.token);
    expect(appended.statusCode).toBe(200);
    expect(await entries(target.id)).toEqual([
      { fileId: f.pub3.id, disabled: false },
      { fileId: f.pub1.id, disabled: true },
      { fileId: f.pub4.id, disabled: false },
    ]);
    const reenabled = await update({ id: target.id, disabledFileIds: [] }, alice.token);
    expect(reenabled.json().playlist.totalDuration).toBe(18 * MIN);
  });

  it('refuses adding a file locked for the editor, naming it, while locked files already in stay', async () => {
    const target = await createPlaylist(db, {
      name: 'Has Locked',
      creatorId: alice.id,
      fileIds: [f.pub1.id, f.pub2.id],
    });
    const res = await update({ id: p.aliceMix.id, fileIds: [f.pub1.id, f.pub2.id] }, alice.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'fileIds: “Pub Two” is locked for you.' });
    expect((await entries(p.aliceMix.id)).map((e) => e.fileId)).toEqual([
      f.pub1.id,
      f.alicePrivate.id,
      f.pub3.id,
    ]);
    // Reordering and removing around a locked file already in the playlist still work.
    const reordered = await update(
      { id: target.id, fileIds: [f.pub2.id, f.pub1.id, f.pub3.id] },
      alice.token,
    );
    expect(reordered.statusCode, reordered.body).toBe(200);
    const removed = await update({ id: target.id, fileIds: [f.pub2.id] }, alice.token);
    expect(removed.statusCode).toBe(200);
    expect(await entries(target.id)).toEqual([{ fileId: f.pub2.id, disabled: false }]);
    // A reader of every file has no locks.
    const own = await createPlaylist(db, { name: 'Moderated', creatorId: moderator.id });
    expect((await update({ id: own.id, fileIds: [f.pub2.id] }, moderator.token)).statusCode).toBe(200);
  });

  it('refuses files that do not exist or that the creator cannot see, keeping what was stored', async () => {
    for (const fileIds of [[f.pub1.id, 999_999], [f.bobPrivate.id]]) {
      const res = await update({ id: p.aliceMix.id, fileIds }, alice.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^fileIds: /);
    }
    const outside = await update(
      { id: p.aliceMix.id, fileIds: [f.pub1.id], disabledFileIds: [f.pub3.id] },
      alice.token,
    );
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error).toMatch(/^disabledFileIds: /);
    expect(await entries(p.aliceMix.id)).toEqual([
      { fileId: f.pub1.id, disabled: false },
      { fileId: f.alicePrivate.id, disabled: false },
      { fileId: f.pub3.id, disabled: true },
    ]);
  });

  it('answers 401 signed out, 403 for someone else, 404 for unknown or hidden playlists', async () => {
    expect((await update({ id: p.aliceMix.id, name: 'x' })).statusCode).toBe(401);
    const other = await update({ id: p.aliceMix.id, name: 'Hijacked' }, bob.token);
    expect(other.statusCode).toBe(403);
    expect((await update({ id: p.aliceMix.id, name: 'By admin' }, owner.token)).statusCode).toBe(403);
    expect((await update({ id: 999_999, name: 'x' }, bob.token)).statusCode).toBe(404);
    expect((await update({ id: p.aliceSecret.id, name: 'x' }, bob.token)).statusCode).toBe(404);
    expect((await db.select().from(playlists).where(eq(playlists.id, p.aliceMix.id)))[0].name).toBe(
      'Alice Mix',
    );
  });

  it('rejects bad fields naming them', async () => {
    const res = await update({ id: p.aliceMix.id, expLevelId: 0 }, alice.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('expLevelId');
    expect((await update({ id: p.aliceMix.id, fileIds: ['a'] }, alice.token)).json().field).toBe('fileIds.0');
  });
});

describe('DELETE /api/playlist', () => {
  const remove = (query: string, token?: string) =>
    app.inject({ method: 'DELETE', url: `/api/playlist?${query}`, headers: headers(token) });

  it('lets only the creator delete', async () => {
    const target = await createPlaylist(db, { name: 'Doomed', creatorId: alice.id, fileIds: [f.pub1.id] });
    expect((await remove(`id=${target.id}`)).statusCode).toBe(401);
    expect((await remove(`id=${target.id}`, bob.token)).statusCode).toBe(403);
    expect((await remove('id=999999', bob.token)).statusCode).toBe(404);
    expect((await remove('id=abc', bob.token)).json().field).toBe('id');
    const res = await remove(`id=${target.id}`, alice.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await db.select().from(playlists).where(eq(playlists.id, target.id))).toEqual([]);
    expect(await db.select().from(playlistFiles).where(eq(playlistFiles.playlistId, target.id))).toEqual([]);
  });
});

describe('GET and PUT /api/playlist/user', () => {
  const info = (id: number, token?: string) =>
    app.inject({ method: 'GET', url: `/api/playlist/user?id=${id}`, headers: headers(token) });
  const rate = (payload: unknown, token?: string) =>
    app.inject({
      method: 'PUT',
      url: '/api/playlist/user',
      payload: payload as object,
      headers: headers(token),
    });
  const stored = async (playlistId: number, userId: number) =>
    (
      await db
        .select()
        .from(playlistRatings)
        .where(and(eq(playlistRatings.playlistId, playlistId), eq(playlistRatings.userId, userId)))
    )[0];

  it("answers the viewer's rating with the counts and like ratio", async () => {
    expect((await info(p.aliceMix.id)).json()).toEqual({
      id: p.aliceMix.id,
      isLiked: false,
      isDisliked: false,
      isFavorite: false,
      likes: 1,
      dislikes: 1,
      likeRatio: 50,
    });
    expect((await info(p.aliceMix.id, bob.token)).json()).toMatchObject({ isLiked: true, isFavorite: false });
    expect((await info(p.core.id)).json().likeRatio).toBeNull();
    expect((await info(p.aliceSecret.id, bob.token)).statusCode).toBe(404);
  });

  it('keeps like and dislike exclusive and favourite independent', async () => {
    const target = await createPlaylist(db, { name: 'Rate me', creatorId: alice.id });
    let res = await rate({ id: target.id, isLiked: true, isFavorite: true }, bob.token);
    expect(res.json()).toEqual({
      id: target.id,
      isLiked: true,
      isDisliked: false,
      isFavorite: true,
      likes: 1,
      dislikes: 0,
      likeRatio: 100,
    });
    res = await rate({ id: target.id, isDisliked: true }, bob.token);
    expect(res.json()).toMatchObject({
      isLiked: false,
      isDisliked: true,
      isFavorite: true,
      likes: 0,
      dislikes: 1,
    });
    expect(res.json().likeRatio).toBe(0);
    res = await rate({ id: target.id, isDisliked: false, isFavorite: false }, bob.token);
    expect(res.json()).toMatchObject({
      isLiked: false,
      isDisliked: false,
      isFavorite: false,
      likeRatio: null,
    });
    expect(await stored(target.id, bob.id)).toMatchObject({ liked: false, disliked: false, favorite: false });
    await rate({ id: target.id, isLiked: true }, bob.token);
    await rate({ id: target.id, isLiked: true }, moderator.token);
    await rate({ id: target.id, isDisliked: true }, owner.token);
    const [row] = await db.select().from(playlists).where(eq(playlists.id, target.id));
    expect(row).toMatchObject({ likes: 2, dislikes: 1, favorites: 0 });
    expect((await info(target.id)).json().likeRatio).toBeCloseTo(66.667, 2);
  });

  it('refuses ratings on own, core, official or private playlists but allows favourites', async () => {
    const official = await createPlaylist(db, { name: 'Official', creatorId: owner.id });
    const privateOwn = await createPlaylist(db, { name: 'Mine', creatorId: bob.id, isPublic: false });
    for (const [id, token] of [
      [p.aliceMix.id, alice.token],
      [p.core.id, bob.token],
      [official.id, bob.token],
      [privateOwn.id, bob.token],
    ] as const) {
      const res = await rate({ id, isLiked: true }, token);
      expect(res.statusCode, String(id)).toBe(403);
      expect(res.json()).toEqual({ error: 'This playlist cannot be rated.' });
      const fav = await rate({ id, isFavorite: true }, token);
      expect(fav.statusCode, String(id)).toBe(200);
      expect(fav.json().isFavorite).toBe(true);
    }
    expect(await stored(p.core.id, bob.id)).toMatchObject({ liked: false, favorite: true });
  });

  it('needs a session, a visible playlist and consistent input', async () => {
    expect((await rate({ id: p.aliceMix.id, isLiked: true })).statusCode).toBe(401);
    expect((await rate({ id: p.aliceSecret.id, isFavorite: true }, bob.token)).statusCode).toBe(404);
    const both = await rate({ id: p.aliceMix.id, isLiked: true, isDisliked: true }, bob.token);
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatch(/^isDisliked: /);
    expect((await rate({ id: p.aliceMix.id, isLiked: 'yes' }, bob.token)).json().field).toBe('isLiked');
  });
});
