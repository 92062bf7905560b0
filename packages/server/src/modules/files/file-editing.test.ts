import { randomUUID } from 'node:crypto';
import { FILE_TYPE_REQUIRED_MESSAGE } from '@mesmer/shared/domain/file-rules';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, fileTiers, fileTriggers, playlistFiles, uploads } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createPlaylist, createTier, createTrigger } from '../../test/library-factories.ts';

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);

type Signed = TestUser & { token: string };
let owner: Signed;
let creator: Signed;
let otherCreator: Signed;
let musician: Signed;
let contributor: Signed;
let moderator: Signed;
let listener: Signed;
let sleep: { id: number };
let focus: { id: number };
let pending: { id: number };

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
  otherCreator = await createSignedInUser(app, { username: 'othercreator', roles: ['Verified Creator'] });
  musician = await createSignedInUser(app, { username: 'musician', roles: ['Music Creator'] });
  contributor = await createSignedInUser(app, { username: 'contributor', roles: ['Contributor'] });
  moderator = await createSignedInUser(app, { username: 'moderator', roles: ['Moderator'] });
  listener = await createSignedInUser(app, { username: 'listener' });
  await createTier(db, {
    id: 'creator-gold',
    creatorName: 'Creator Campaign',
    title: 'Gold',
    rank: 2,
    creatorUserId: creator.id,
  });
  await createTier(db, {
    id: 'creator-bronze',
    creatorName: 'Creator Campaign',
    title: 'Bronze',
    rank: 1,
    creatorUserId: creator.id,
  });
  await createTier(db, {
    id: 'other-tier',
    creatorName: 'Other Campaign',
    title: 'Fan',
    rank: 1,
    creatorUserId: otherCreator.id,
  });
  sleep = await createTrigger(db, { name: 'Sleep', creatorId: owner.id });
  focus = await createTrigger(db, { name: 'Focus', creatorId: owner.id });
  pending = await createTrigger(db, { name: 'Requested', creatorId: creator.id, pending: true });
});

/**
 * A finished upload of `user`, as the uploads module leaves it: a row in state 'ready' and the
 * audio in storage under its final key. `uuid` is the client's handle, `id` the server's.
 */
async function readyUpload(user: TestUser, state = 'ready') {
  const uuid = randomUUID();
  const id = randomUUID();
  const audioKey = `audio/${id}.wav`;
  await storage.put(audioKey, Buffer.from('RIFF fake wave bytes'));
  await db.insert(uploads).values({
    id,
    uuid,
    userId: user.id,
    fileName: 'take one.wav',
    totalChunks: 1,
    storageKey: `uploads/${id}`,
    storageUploadId: 'done',
    state,
    audioType: 'wav',
    codec: 'PCM',
    duration: 61_000,
    size: 20,
    waveform: [0, 0.5, 1],
    loudness: -23.5,
  });
  return { uuid, id, audioKey };
}

const send = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, token?: string, payload?: object) =>
  app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });

const fileRow = async (id: number) => (await db.select().from(files).where(eq(files.id, id)))[0];
const triggerLinks = async (fileId: number) =>
  db
    .select({ id: fileTriggers.triggerId, trains: fileTriggers.trains })
    .from(fileTriggers)
    .where(eq(fileTriggers.fileId, fileId))
    .orderBy(asc(fileTriggers.triggerId));
const tierLinks = async (fileId: number) =>
  (await db.select().from(fileTiers).where(eq(fileTiers.fileId, fileId))).map((r) => r.tierId);

async function create(user: Signed, body: object = {}) {
  const upload = await readyUpload(user);
  const res = await send('POST', '/api/files', user.token, {
    name: 'Deep Rest',
    fileType: 2,
    uuid: upload.uuid,
    ...body,
  });
  return { res, upload };
}

describe('GET /api/files/upload-options', () => {
  it('answers what each uploader may choose', async () => {
    const options = async (user: Signed) =>
      (await send('GET', '/api/files/upload-options', user.token)).json();
    expect(await options(creator)).toEqual({
      fileTypes: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      privateOnly: false,
      canSetTrackNumber: false,
      tiers: [
        { id: 'creator-bronze', name: 'Bronze', rank: 1 },
        { id: 'creator-gold', name: 'Gold', rank: 2 },
      ],
    });
    expect(await options(musician)).toEqual({
      fileTypes: [7, 9],
      privateOnly: false,
      canSetTrackNumber: false,
      tiers: [],
    });
    expect(await options(contributor)).toMatchObject({ privateOnly: true, tiers: [] });
    expect(await options(owner)).toMatchObject({ canSetTrackNumber: true, privateOnly: false });
  });

  it('answers 401 anonymous and 403 without an upload permission', async () => {
    expect((await send('GET', '/api/files/upload-options')).statusCode).toBe(401);
    for (const user of [listener, moderator]) {
      const res = await send('GET', '/api/files/upload-options', user.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'You do not have permission to upload files.' });
    }
  });
});

describe('POST /api/files', () => {
  it('makes a file of a finished upload with its triggers and tier, and forgets the upload', async () => {
    const { res, upload } = await create(creator, {
      name: '  Deep Rest  ',
      description: 'Sink down.',
      triggers: [
        { id: focus.id, trains: true },
        { id: sleep.id, trains: false },
      ],
      patreonTier: 'creator-bronze',
      releaseDate: '2026-05-20T10:00:00.000Z',
    });
    expect(res.statusCode).toBe(200);
    const { id } = res.json();
    expect(res.json()).toEqual({ id: expect.any(Number) });
    expect(await fileRow(id)).toMatchObject({
      // The server's id of the upload, not the client's handle.
      uuid: upload.id,
      name: 'Deep Rest',
      description: 'Sink down.',
      fileType: 2,
      trackNumber: null,
      releaseDate: new Date('2026-05-20T10:00:00.000Z'),
      isPublic: true,
      duration: 61_000,
      audioKey: upload.audioKey,
      audioType: 'audio/wav',
      waveform: [0, 0.5, 1],
      loudness: -23.5,
      authorId: creator.id,
      uploaderId: creator.id,
      userUploaded: true,
    });
    expect(await triggerLinks(id)).toEqual(
      [
        { id: sleep.id, trains: false },
        { id: focus.id, trains: true },
      ].sort((a, b) => a.id - b.id),
    );
    expect(await tierLinks(id)).toEqual(['creator-bronze']);
    expect(await db.select().from(uploads).where(eq(uploads.uuid, upload.uuid))).toEqual([]);
    expect(await storage.stat(upload.audioKey)).not.toBeNull();

    const listed = await send('GET', `/api/files?uuid=${upload.id}`, creator.token);
    expect(listed.json().files[0]).toMatchObject({
      id,
      name: 'Deep Rest',
      patreonTiers: [{ id: 'creator-bronze' }],
    });
  });

  it('answers 404 for a second file of the same upload, and 409 when the upload outlived its file', async () => {
    const { res, upload } = await create(creator);
    expect(res.statusCode).toBe(200);
    const body = { name: 'Again', fileType: 2, uuid: upload.uuid };
    const again = await send('POST', '/api/files', creator.token, body);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Upload not found.' });
    expect(await db.select().from(files).where(eq(files.uuid, upload.id))).toHaveLength(1);
    // A crash between making the file and forgetting the upload: the row is still there.
    const left = await readyUpload(creator);
    await createFile(db, { authorId: creator.id }).then((f) =>
      db.update(files).set({ uuid: left.id }).where(eq(files.id, f.id)),
    );
    const outlived = await send('POST', '/api/files', creator.token, { ...body, uuid: left.uuid });
    expect(outlived.statusCode).toBe(409);
    expect(outlived.json()).toEqual({ error: 'A file was already made from this upload.' });
    expect(await db.select().from(files).where(eq(files.uuid, left.id))).toHaveLength(1);
    expect(await db.select().from(uploads).where(eq(uploads.id, left.id))).toEqual([]);
  });

  it('takes releaseDate null as no date given (now), like leaving it out', async () => {
    for (const releaseDate of [null, undefined]) {
      const { res } = await create(creator, { releaseDate });
      expect(res.statusCode, res.body).toBe(200);
      expect((await fileRow(res.json().id)).releaseDate).toEqual(app.ctx.clock.now());
    }
  });

  it("answers 404 for a published file's uuid: a create call makes files of the caller's own uploads only", async () => {
    const published = await createFile(db, { authorId: otherCreator.id });
    const res = await send('POST', '/api/files', creator.token, {
      uuid: published.uuid,
      name: 'x',
      fileType: 2,
    });
    expect(res.statusCode).toBe(404);
    expect(await db.select().from(files).where(eq(files.uuid, published.uuid))).toHaveLength(1);
  });

  it("answers 400 'The file type tag must be set.' without a type, and names other bad fields", async () => {
    const upload = await readyUpload(creator);
    const cases: [object, string][] = [
      [{ name: 'x' }, 'fileType'],
      [{ name: 'x', fileType: null }, 'fileType'],
      [{ name: 'x', fileType: 10 }, 'fileType'],
      [{ name: '   ', fileType: 2 }, 'name'],
      [{ name: 'x'.repeat(201), fileType: 2 }, 'name'],
      [{ name: 'x', fileType: 2, trackNumber: -1 }, 'trackNumber'],
      [{ name: 'x', fileType: 2, triggers: [{ id: sleep.id }, { id: sleep.id }] }, 'triggers'],
      [{ name: 'x', fileType: 2, releaseDate: 'yesterday' }, 'releaseDate'],
    ];
    for (const [body, field] of cases) {
      const res = await send('POST', '/api/files', creator.token, { uuid: upload.uuid, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const untyped = await send('POST', '/api/files', creator.token, { uuid: upload.uuid, name: 'x' });
    expect(untyped.json()).toEqual({ error: `fileType: ${FILE_TYPE_REQUIRED_MESSAGE}`, field: 'fileType' });
    const badUuid = await send('POST', '/api/files', creator.token, { uuid: 'nope', name: 'x', fileType: 2 });
    expect(badUuid.json().field).toBe('uuid');
  });

  it('refuses unknown and pending triggers', async () => {
    for (const triggerId of [pending.id, 999_999]) {
      const { res } = await create(creator, { triggers: [{ id: triggerId }] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: `triggers: there is no trigger with id ${triggerId}.`,
        field: 'triggers',
      });
    }
  });

  it('answers 401 anonymous and 403 without an upload permission', async () => {
    const upload = await readyUpload(listener);
    expect(
      (await send('POST', '/api/files', undefined, { uuid: upload.uuid, name: 'x', fileType: 2 })).statusCode,
    ).toBe(401);
    const res = await send('POST', '/api/files', listener.token, {
      uuid: upload.uuid,
      name: 'x',
      fileType: 2,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You do not have permission to upload files.' });
  });

  it('lets music creators publish only music types', async () => {
    const refused = await create(musician, { fileType: 2 });
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json()).toEqual({ error: 'fileType: you may not upload files of this type.' });
    for (const fileType of [7, 9]) {
      const { res } = await create(musician, { fileType });
      expect(res.statusCode).toBe(200);
      expect((await fileRow(res.json().id)).fileType).toBe(fileType);
    }
  });

  it('lets contributors publish only private files, private by default', async () => {
    const refused = await create(contributor, { isPublic: true });
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json()).toEqual({
      error: 'isPublic: you may publish files of this type only privately.',
    });
    const { res } = await create(contributor);
    expect(res.statusCode).toBe(200);
    expect((await fileRow(res.json().id)).isPublic).toBe(false);
  });

  it('lets only the site owner set a track number', async () => {
    const refused = await create(creator, { trackNumber: 3 });
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json()).toEqual({ error: 'trackNumber: only the site owner sets track numbers.' });
    const { res } = await create(owner, { trackNumber: 0, releaseDate: '2026-04-01' });
    expect(res.statusCode).toBe(200);
    expect(await fileRow(res.json().id)).toMatchObject({
      trackNumber: 0,
      userUploaded: false,
      releaseDate: new Date('2026-04-01T00:00:00Z'),
    });
  });

  it("needs a linked membership account for a tier, and one of the uploader's own tiers", async () => {
    const unlinked = await create(musician, { fileType: 7, patreonTier: 'creator-gold' });
    expect(unlinked.res.statusCode).toBe(403);
    expect(unlinked.res.json()).toEqual({
      error: 'patreonTier: link a membership account to lock files to a tier.',
    });
    const foreign = await create(creator, { patreonTier: 'other-tier' });
    expect(foreign.res.statusCode).toBe(400);
    expect(foreign.res.json()).toEqual({
      error: 'patreonTier: not one of your membership tiers.',
      field: 'patreonTier',
    });
    expect(await db.select().from(files).where(eq(files.uuid, foreign.upload.id))).toEqual([]);
  });

  it("answers 404 for another user's upload and 409 for one not finished", async () => {
    const theirs = await readyUpload(otherCreator);
    const res = await send('POST', '/api/files', creator.token, {
      uuid: theirs.uuid,
      name: 'x',
      fileType: 2,
    });
    expect(res.statusCode).toBe(404);
    const unfinished = await readyUpload(creator, 'processing');
    const early = await send('POST', '/api/files', creator.token, {
      uuid: unfinished.uuid,
      name: 'x',
      fileType: 2,
    });
    expect(early.statusCode).toBe(409);
    expect(await db.select().from(files).where(eq(files.uuid, unfinished.id))).toEqual([]);
  });
});

describe('PUT /api/files', () => {
  it('lets the uploader change every field, tier included, and answers the file', async () => {
    const file = await createFile(db, { authorId: creator.id, name: 'Before', tierIds: ['creator-bronze'] });
    const res = await send('PUT', '/api/files', creator.token, {
      id: file.id,
      name: 'After',
      description: 'New words.',
      fileType: 4,
      isPublic: false,
      patreonTier: 'creator-gold',
      triggers: [{ id: sleep.id, trains: true }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().file).toMatchObject({
      id: file.id,
      name: 'After',
      description: 'New words.',
      fileType: 4,
      isPublic: false,
      patreonTiers: [{ id: 'creator-gold', name: 'Gold', rank: 2 }],
      triggers: [{ id: sleep.id, name: 'Sleep', trains: true }],
    });
    expect(await fileRow(file.id)).toMatchObject({
      name: 'After',
      description: 'New words.',
      fileType: 4,
      isPublic: false,
    });
    expect(await tierLinks(file.id)).toEqual(['creator-gold']);
    expect(await triggerLinks(file.id)).toEqual([{ id: sleep.id, trains: true }]);
  });

  it('keeps fields left out, and removes the tier when the uploader sends null', async () => {
    const file = await createFile(db, {
      authorId: creator.id,
      name: 'Kept',
      description: 'Stays.',
      tierIds: ['creator-bronze'],
      triggers: [{ id: focus.id }],
    });
    const res = await send('PUT', '/api/files', creator.token, { id: file.id, fileType: 2 });
    expect(res.statusCode).toBe(200);
    expect(await fileRow(file.id)).toMatchObject({ name: 'Kept', description: 'Stays.', isPublic: true });
    expect(await tierLinks(file.id)).toEqual(['creator-bronze']);
    expect(await triggerLinks(file.id)).toEqual([{ id: focus.id, trains: false }]);
    await send('PUT', '/api/files', creator.token, { id: file.id, fileType: 2, patreonTier: null });
    expect(await tierLinks(file.id)).toEqual([]);
  });

  it("lets WRITE_ALL_FILES holders edit others' files, keeping the tier", async () => {
    const file = await createFile(db, { authorId: creator.id, name: 'Theirs', tierIds: ['creator-bronze'] });
    const res = await send('PUT', '/api/files', moderator.token, {
      id: file.id,
      name: 'Fixed',
      fileType: 7,
      patreonTier: null,
    });
    expect(res.statusCode).toBe(200);
    expect(await fileRow(file.id)).toMatchObject({ name: 'Fixed', fileType: 7 });
    expect(await tierLinks(file.id)).toEqual(['creator-bronze']);
  });

  it('holds the uploader to the upload rules', async () => {
    const song = await createFile(db, { authorId: musician.id, fileType: 7 });
    const res = await send('PUT', '/api/files', musician.token, { id: song.id, fileType: 2 });
    expect(res.statusCode).toBe(403);
    expect((await fileRow(song.id)).fileType).toBe(7);
    const draft = await createFile(db, { authorId: contributor.id, isPublic: false });
    const published = await send('PUT', '/api/files', contributor.token, {
      id: draft.id,
      fileType: 2,
      isPublic: true,
    });
    expect(published.statusCode).toBe(403);
    expect((await fileRow(draft.id)).isPublic).toBe(false);
    const tiered = await send('PUT', '/api/files', creator.token, {
      id: (await createFile(db, { authorId: creator.id })).id,
      fileType: 2,
      patreonTier: 'other-tier',
    });
    expect(tiered.statusCode).toBe(400);
    expect(tiered.json().field).toBe('patreonTier');
  });

  it("answers 400 'The file type tag must be set.' naming the field", async () => {
    const file = await createFile(db, { authorId: creator.id });
    const res = await send('PUT', '/api/files', creator.token, { id: file.id, name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: `fileType: ${FILE_TYPE_REQUIRED_MESSAGE}`, field: 'fileType' });
    expect((await send('PUT', '/api/files', creator.token, { id: 0, fileType: 2 })).json().field).toBe('id');
    const unknownTrigger = await send('PUT', '/api/files', creator.token, {
      id: file.id,
      fileType: 2,
      triggers: [{ id: pending.id }],
    });
    expect(unknownTrigger.statusCode).toBe(400);
    expect(unknownTrigger.json().field).toBe('triggers');
  });

  it('answers 401 anonymous, 403 to others for a visible file and 404 for one they cannot see', async () => {
    const open = await createFile(db, { authorId: creator.id, name: 'Open' });
    const hidden = await createFile(db, { authorId: creator.id, name: 'Hidden', isPublic: false });
    expect((await send('PUT', '/api/files', undefined, { id: open.id, fileType: 2 })).statusCode).toBe(401);
    const refused = await send('PUT', '/api/files', otherCreator.token, {
      id: open.id,
      fileType: 2,
      name: 'Mine',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Only the uploader or staff may change this file.' });
    const unseen = await send('PUT', '/api/files', otherCreator.token, { id: hidden.id, fileType: 2 });
    expect(unseen.statusCode).toBe(404);
    expect((await send('PUT', '/api/files', creator.token, { id: 999_999, fileType: 2 })).statusCode).toBe(
      404,
    );
    expect((await fileRow(open.id)).name).toBe('Open');
  });
});

describe('DELETE /api/files', () => {
  it('removes the row, its stored media and its playlist entries, keeping the playlists in order', async () => {
    const doomed = await createFile(db, {
      authorId: creator.id,
      haptics: true,
      script: true,
      triggers: [{ id: sleep.id }],
    });
    for (const key of [doomed.audioKey, doomed.hapticsKey, doomed.scriptKey]) {
      await storage.put(key as string, Buffer.from('bytes'));
    }
    const a = await createFile(db, { authorId: owner.id });
    const b = await createFile(db, { authorId: owner.id });
    const list = await createPlaylist(db, {
      creatorId: listener.id,
      fileIds: [doomed.id, a.id, doomed.id, b.id],
    });
    const res = await send('DELETE', `/api/files?id=${doomed.id}`, creator.token);
    expect(res.statusCode).toBe(204);
    expect(await db.select().from(files).where(eq(files.id, doomed.id))).toEqual([]);
    expect(await db.select().from(fileTriggers).where(eq(fileTriggers.fileId, doomed.id))).toEqual([]);
    for (const key of [doomed.audioKey, doomed.hapticsKey, doomed.scriptKey]) {
      expect(await storage.stat(key as string), key as string).toBeNull();
    }
    const entries = await db
      .select({ position: playlistFiles.position, fileId: playlistFiles.fileId })
      .from(playlistFiles)
      .where(eq(playlistFiles.playlistId, list.id))
      .orderBy(asc(playlistFiles.position));
    expect(entries).toEqual([
      { position: 1, fileId: a.id },
      { position: 2, fileId: b.id },
    ]);
    const shown = await send('GET', `/api/playlists?uuid=${list.uuid}`, listener.token);
    expect(shown.json().playlists[0].fileIds).toEqual([a.id, b.id]);
  });

  it("lets WRITE_ALL_FILES holders delete others' files", async () => {
    const file = await createFile(db, { authorId: creator.id });
    expect((await send('DELETE', `/api/files?id=${file.id}`, moderator.token)).statusCode).toBe(204);
    expect(await db.select().from(files).where(eq(files.id, file.id))).toEqual([]);
  });

  it('answers 400 naming id, 401 anonymous, 403 to others and 404 for a file they cannot see', async () => {
    const open = await createFile(db, { authorId: creator.id });
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    expect((await send('DELETE', '/api/files?id=x', creator.token)).json().field).toBe('id');
    expect((await send('DELETE', `/api/files?id=${open.id}`)).statusCode).toBe(401);
    expect((await send('DELETE', `/api/files?id=${open.id}`, otherCreator.token)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/files?id=${hidden.id}`, otherCreator.token)).statusCode).toBe(404);
    expect(await db.select({ id: files.id }).from(files).where(eq(files.id, open.id))).toEqual([
      { id: open.id },
    ]);
    expect(await db.select({ id: files.id }).from(files).where(eq(files.id, hidden.id))).toEqual([
      { id: hidden.id },
    ]);
  });
});

describe('GET /api/files/waveform', () => {
  it('answers the peaks and loudness of a file the viewer may see', async () => {
    const { res } = await create(creator);
    const id = res.json().id;
    const wave = await send('GET', `/api/files/waveform?id=${id}`);
    expect(wave.statusCode).toBe(200);
    expect(wave.json()).toEqual({ peaks: [0, 0.5, 1], loudness: -23.5 });
    const unanalysed = await createFile(db, { authorId: creator.id });
    expect((await send('GET', `/api/files/waveform?id=${unanalysed.id}`)).json()).toEqual({
      peaks: [],
      loudness: null,
    });
  });

  it('answers 404 for a file the viewer may not see and 400 naming id', async () => {
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    expect((await send('GET', `/api/files/waveform?id=${hidden.id}`)).statusCode).toBe(404);
    expect((await send('GET', `/api/files/waveform?id=${hidden.id}`, otherCreator.token)).statusCode).toBe(
      404,
    );
    expect((await send('GET', `/api/files/waveform?id=${hidden.id}`, creator.token)).statusCode).toBe(200);
    expect((await send('GET', `/api/files/waveform?id=${hidden.id}`, moderator.token)).statusCode).toBe(200);
    expect((await send('GET', '/api/files/waveform?id=999999')).statusCode).toBe(404);
    expect((await send('GET', '/api/files/waveform?id=abc')).json().field).toBe('id');
  });
});

describe('kept answers', () => {
  const names = async () => {
    const res = await send('GET', '/api/files?pageSize=100&sortType=name');
    return { cache: res.headers['x-cache'], names: res.json().files.map((f: { name: string }) => f.name) };
  };

  it('are refreshed by every write', async () => {
    await names();
    expect((await names()).cache).toBe('hit');

    const { res } = await create(creator, { name: 'Kept Answer Fresh' });
    const id = res.json().id;
    expect(await names()).toMatchObject({
      cache: 'miss',
      names: expect.arrayContaining(['Kept Answer Fresh']),
    });

    await send('PUT', '/api/files', creator.token, { id, fileType: 2, name: 'Kept Answer Renamed' });
    const renamed = await names();
    expect(renamed.cache).toBe('miss');
    expect(renamed.names).toContain('Kept Answer Renamed');
    expect(renamed.names).not.toContain('Kept Answer Fresh');

    await send('DELETE', `/api/files?id=${id}`, creator.token);
    const deleted = await names();
    expect(deleted.cache).toBe('miss');
    expect(deleted.names).not.toContain('Kept Answer Renamed');
  });
});
