import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, fileTiers, fileTriggers, playlistFiles, playlists, triggers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createPlaylist, createTier, createTrigger } from '../../test/library-factories.ts';

// Answers computed for every request: these tests are about the stored summaries, not kept answers.
const { app } = await createTestApp({ libraryCacheSeconds: 0 });
const db = app.ctx.db;
const MIN = 60_000;

type Signed = TestUser & { token: string };
let admin: Signed;
let alice: Signed;
let carol: Signed;
let bob: Signed;
const f: Record<string, Awaited<ReturnType<typeof createFile>>> = {};
const p: Record<string, Awaited<ReturnType<typeof createPlaylist>>> = {};
const t: Record<string, Awaited<ReturnType<typeof createTrigger>>> = {};

beforeAll(async () => {
  admin = await createSignedInUser(app, { username: 'admin', roles: ['Administrator'] });
  alice = await createSignedInUser(app, { username: 'alice', roles: ['Verified Creator'] });
  // Owns a file in no playlist below: her lists are summed per request (access.listViewer), yet
  // she sees exactly what anyone sees of them.
  carol = await createSignedInUser(app, { username: 'carol', roles: ['Verified Creator'] });
  // Owns nothing: the shared audience, as an anonymous visitor.
  bob = await createSignedInUser(app, { username: 'bob' });
  await createTier(db, { id: 'gold', creatorName: 'Mesmer', rank: 1 });
  t.zeta = await createTrigger(db, { name: 'Zeta', creatorId: admin.id });
  t.alpha = await createTrigger(db, { name: 'Alpha', creatorId: admin.id });
  t.mid = await createTrigger(db, { name: 'Middle', creatorId: admin.id });

  f.haptic = await createFile(db, {
    name: 'Haptic',
    authorId: admin.id,
    duration: 10 * MIN,
    haptics: true,
    warnings: ['Deep.', 'Loud.'],
    triggers: [{ id: t.zeta.id }],
  });
  f.locked = await createFile(db, {
    name: 'Locked',
    authorId: admin.id,
    duration: 20 * MIN,
    tierIds: ['gold'],
    warnings: ['Binaural.', 'Deep.'],
    triggers: [{ id: t.alpha.id }, { id: t.zeta.id, trains: true }],
  });
  f.private = await createFile(db, {
    name: 'Private',
    authorId: alice.id,
    duration: 7 * MIN,
    isPublic: false,
    haptics: true,
    warnings: ['Secret.'],
    triggers: [{ id: t.mid.id }],
    userUploaded: true,
  });
  f.plain = await createFile(db, { name: 'Plain', authorId: alice.id, duration: 5 * MIN });
  f.carols = await createFile(db, { name: 'Carols', authorId: carol.id, isPublic: false });

  p.mixed = await createPlaylist(db, {
    name: 'Mixed',
    creatorId: alice.id,
    fileIds: [f.plain.id, f.private.id, f.haptic.id, f.locked.id, f.haptic.id],
    disabledFileIds: [f.locked.id],
  });
  p.allPrivate = await createPlaylist(db, {
    name: 'All Private',
    creatorId: alice.id,
    fileIds: [f.private.id],
  });
  p.empty = await createPlaylist(db, { name: 'Empty', creatorId: admin.id });
  p.core = await createPlaylist(db, {
    name: 'Core',
    creatorId: admin.id,
    isCore: true,
    fileIds: [f.locked.id, f.haptic.id],
  });
});

const headers = (token?: string) => (token ? authHeader(token) : {});
const ids = () => Object.values(p).map((x) => x.id);

async function listBody(token?: string, simple = true) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/playlists?ids=${ids().join(',')}&sort=name&sortDir=asc${simple ? '&simple=true' : ''}`,
    headers: headers(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

type Listed = { id: number; fileIds: number[]; files: unknown[]; triggers: { name: string }[] } & Record<
  string,
  unknown
>;
const byId = (body: string): Map<number, Listed> =>
  new Map(JSON.parse(body).playlists.map((x: Listed) => [x.id, x]));

/**
 * The stored summaries (anonymous visitors, signed-in users who own nothing) against the same
 * totals summed per request (carol) and from the presented files (the list without `simple`):
 * byte for byte. Answers the anonymous list's playlists by id.
 */
async function expectStoredAsComputed() {
  const anonymous = await listBody();
  expect(await listBody(bob.token)).toBe(anonymous);
  expect(await listBody(carol.token)).toBe(anonymous);
  for (const [id, full] of byId(await listBody(undefined, false))) {
    expect(byId(anonymous).get(id)).toEqual({ ...full, files: [] });
  }
  const recent = await app.inject({ method: 'GET', url: '/api/playlists/recent' });
  const recentCarol = await app.inject({
    method: 'GET',
    url: '/api/playlists/recent',
    headers: headers(carol.token),
  });
  expect(recent.body).toBe(recentCarol.body);
  return byId(anonymous);
}

const mixed = async () => (await expectStoredAsComputed()).get(p.mixed.id);

describe('stored public summaries', () => {
  it('hold the public entries only, as a list shows them', async () => {
    const shown = await expectStoredAsComputed();
    expect(shown.get(p.mixed.id)).toMatchObject({
      fileIds: [f.plain.id, f.haptic.id, f.locked.id, f.haptic.id],
      fileCount: 4,
      totalDuration: 25 * MIN,
      hapticsPercent: 50,
      hasPatreonFiles: true,
      warnings: ['Deep.', 'Loud.', 'Binaural.'],
      // In the order first met: Zeta with the haptic file, then Alpha with the locked one.
      triggers: [
        { id: t.zeta.id, uuid: t.zeta.uuid, name: 'Zeta' },
        { id: t.alpha.id, uuid: t.alpha.uuid, name: 'Alpha' },
      ],
    });
    // By name within one entry.
    expect(shown.get(p.core.id)?.triggers).toEqual([
      { id: t.alpha.id, uuid: t.alpha.uuid, name: 'Alpha' },
      { id: t.zeta.id, uuid: t.zeta.uuid, name: 'Zeta' },
    ]);
    expect(shown.get(p.allPrivate.id)).toMatchObject({
      fileIds: [],
      fileCount: 0,
      totalDuration: 0,
      hapticsPercent: 0,
      hasPatreonFiles: false,
      warnings: [],
      triggers: [],
    });
    expect(shown.get(p.empty.id)).toMatchObject({ fileIds: [], fileCount: 0, triggers: [] });
  });

  it('leave owners and readers of all files to their own totals', async () => {
    const anonymous = byId(await listBody());
    const own = byId(await listBody(alice.token));
    expect(own.get(p.mixed.id)).toMatchObject({
      fileIds: [f.plain.id, f.private.id, f.haptic.id, f.locked.id, f.haptic.id],
      fileCount: 5,
      totalDuration: 32 * MIN,
      hapticsPercent: 60,
      warnings: ['Secret.', 'Deep.', 'Loud.', 'Binaural.'],
    });
    expect(own.get(p.core.id)).toEqual(anonymous.get(p.core.id));
    expect(byId(await listBody(admin.token)).get(p.allPrivate.id)).toMatchObject({
      fileIds: [f.private.id],
      fileCount: 1,
    });
  });

  it('follow entries added, moved, disabled and removed through the API', async () => {
    const update = async (payload: object) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/playlists',
        payload: { id: p.mixed.id, ...payload },
        headers: headers(alice.token),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await update({ fileIds: [f.locked.id, f.plain.id, f.haptic.id], disabledFileIds: [] });
    expect(await mixed()).toMatchObject({
      fileIds: [f.locked.id, f.plain.id, f.haptic.id],
      totalDuration: 35 * MIN,
      hapticsPercent: 33,
      warnings: ['Binaural.', 'Deep.', 'Loud.'],
      triggers: [{ name: 'Alpha' }, { name: 'Zeta' }],
    });
    await update({ disabledFileIds: [f.locked.id, f.haptic.id] });
    expect(await mixed()).toMatchObject({ fileCount: 3, totalDuration: 5 * MIN });
    await update({ fileIds: [f.haptic.id, f.private.id], disabledFileIds: [] });
    expect(await mixed()).toMatchObject({
      fileIds: [f.haptic.id],
      hasPatreonFiles: false,
      warnings: ['Deep.', 'Loud.'],
      triggers: [{ name: 'Zeta' }],
    });
    await update({ fileIds: [] });
    expect(await mixed()).toMatchObject({ fileIds: [], fileCount: 0, totalDuration: 0, triggers: [] });
    // Back as it was, directly: the locked file is locked for alice, so the API would refuse it.
    await db.insert(playlistFiles).values(
      [f.plain.id, f.private.id, f.haptic.id, f.locked.id, f.haptic.id].map((fileId, i) => ({
        playlistId: p.mixed.id,
        position: i + 1,
        fileId,
        disabled: fileId === f.locked.id,
      })),
    );
    expect(await mixed()).toMatchObject({ fileCount: 4, totalDuration: 25 * MIN });
  });

  it('follow entries written directly (an admin command, psql)', async () => {
    await db
      .update(playlistFiles)
      .set({ disabled: true })
      .where(and(eq(playlistFiles.playlistId, p.mixed.id), eq(playlistFiles.fileId, f.plain.id)));
    expect(await mixed()).toMatchObject({ totalDuration: 20 * MIN });
    // Moves an entry to another playlist: both are summarised again.
    await db
      .update(playlistFiles)
      .set({ playlistId: p.empty.id, position: 1 })
      .where(and(eq(playlistFiles.playlistId, p.mixed.id), eq(playlistFiles.fileId, f.plain.id)));
    const shown = await expectStoredAsComputed();
    expect(shown.get(p.empty.id)).toMatchObject({ fileIds: [f.plain.id], totalDuration: 0 });
    expect(shown.get(p.mixed.id)?.fileIds).toEqual([f.haptic.id, f.locked.id, f.haptic.id]);
    await db.delete(playlistFiles).where(eq(playlistFiles.playlistId, p.empty.id));
    await db
      .insert(playlistFiles)
      .values({ playlistId: p.mixed.id, position: 1, fileId: f.plain.id, disabled: false });
    expect(await mixed()).toMatchObject({
      fileIds: [f.plain.id, f.haptic.id, f.locked.id, f.haptic.id],
      totalDuration: 25 * MIN,
    });
  });

  it("follow a file's visibility, duration, haptics and warnings", async () => {
    await db.update(files).set({ isPublic: true }).where(eq(files.id, f.private.id));
    expect(await mixed()).toMatchObject({ fileCount: 5, totalDuration: 32 * MIN, hapticsPercent: 60 });
    expect((await expectStoredAsComputed()).get(p.allPrivate.id)).toMatchObject({ fileIds: [f.private.id] });
    await db.update(files).set({ isPublic: false }).where(eq(files.id, f.private.id));
    expect(await mixed()).toMatchObject({ fileCount: 4, totalDuration: 25 * MIN });

    await db
      .update(files)
      .set({ duration: 11 * MIN })
      .where(eq(files.id, f.haptic.id));
    expect(await mixed()).toMatchObject({ totalDuration: 27 * MIN });
    await db.update(files).set({ hapticsKey: null }).where(eq(files.id, f.haptic.id));
    expect(await mixed()).toMatchObject({ hapticsPercent: 0 });
    await db
      .update(files)
      .set({ warnings: ['Loud.', 'New.'] })
      .where(eq(files.id, f.haptic.id));
    expect(await mixed()).toMatchObject({ warnings: ['Loud.', 'New.', 'Binaural.', 'Deep.'] });
    await db
      .update(files)
      .set({ duration: 10 * MIN, hapticsKey: 'haptics/h.json', warnings: ['Deep.', 'Loud.'] })
      .where(eq(files.id, f.haptic.id));
    expect(await mixed()).toMatchObject({ totalDuration: 25 * MIN, hapticsPercent: 50 });
    // A private file's change leaves the public summary as it is.
    await db.update(files).set({ duration: MIN, warnings: [] }).where(eq(files.id, f.private.id));
    expect(await mixed()).toMatchObject({ totalDuration: 25 * MIN });
  });

  it("follow a file's tiers", async () => {
    await db.delete(fileTiers).where(eq(fileTiers.fileId, f.locked.id));
    expect(await mixed()).toMatchObject({ hasPatreonFiles: false });
    await db.insert(fileTiers).values({ fileId: f.plain.id, tierId: 'gold' });
    expect(await mixed()).toMatchObject({ hasPatreonFiles: true });
    await db.delete(fileTiers).where(eq(fileTiers.fileId, f.plain.id));
    await db.insert(fileTiers).values({ fileId: f.locked.id, tierId: 'gold' });
    expect(await mixed()).toMatchObject({ hasPatreonFiles: true });
  });

  it('follow triggers linked, unlinked and renamed', async () => {
    await db.insert(fileTriggers).values({ fileId: f.plain.id, triggerId: t.mid.id });
    expect((await mixed())?.triggers).toEqual([
      { id: t.mid.id, uuid: t.mid.uuid, name: 'Middle' },
      { id: t.zeta.id, uuid: t.zeta.uuid, name: 'Zeta' },
      { id: t.alpha.id, uuid: t.alpha.uuid, name: 'Alpha' },
    ]);
    await db.insert(fileTriggers).values({ fileId: f.plain.id, triggerId: t.alpha.id });
    expect((await mixed())?.triggers.map((x) => x.name)).toEqual(['Alpha', 'Middle', 'Zeta']);
    // Names are read with the list: a renamed trigger takes its place by its new name.
    await db.update(triggers).set({ name: 'Aardvark' }).where(eq(triggers.id, t.mid.id));
    expect((await mixed())?.triggers.map((x) => x.name)).toEqual(['Aardvark', 'Alpha', 'Zeta']);
    await db.delete(fileTriggers).where(eq(fileTriggers.fileId, f.plain.id));
    await db.update(triggers).set({ name: 'Middle' }).where(eq(triggers.id, t.mid.id));
    expect((await mixed())?.triggers.map((x) => x.name)).toEqual(['Zeta', 'Alpha']);
    // A deleted trigger goes with its links.
    await db.delete(triggers).where(eq(triggers.id, t.alpha.id));
    expect((await mixed())?.triggers.map((x) => x.name)).toEqual(['Zeta']);
  });

  it("are what the shared audience's lists read, and those of owners of hidden playlists but no files", async () => {
    const dave = await createSignedInUser(app, { username: 'dave' });
    const draft = await createPlaylist(db, { name: 'Dave draft', creatorId: dave.id, isPublic: false });
    await db.update(playlists).set({ publicTotalDuration: 1 }).where(eq(playlists.id, p.core.id));
    expect(byId(await listBody()).get(p.core.id)?.totalDuration).toBe(1);
    // Dave's list is his own (his draft shows), its summaries the stored ones: he sees public files only.
    const daves = await app.inject({
      method: 'GET',
      url: `/api/playlists?ids=${[p.core.id, draft.id].join(',')}&simple=true`,
      headers: headers(dave.token),
    });
    expect(byId(daves.body).get(p.core.id)?.totalDuration).toBe(1);
    expect(byId(daves.body).has(draft.id)).toBe(true);
    expect(byId(await listBody(carol.token)).get(p.core.id)?.totalDuration).toBe(30 * MIN);
    // As an admin command would; not as a select, which the embedded database takes for a read
    // (db/library-generation.ts, untilWritten).
    await db.execute(sql.raw(`do $$ begin perform summarise_public_entries(array[${p.core.id}]); end $$`));
    expect((await expectStoredAsComputed()).get(p.core.id)?.totalDuration).toBe(30 * MIN);
  });

  it('follow a file deleted', async () => {
    await db.delete(files).where(eq(files.id, f.haptic.id));
    expect(await mixed()).toMatchObject({
      fileIds: [f.plain.id, f.locked.id],
      totalDuration: 5 * MIN,
      hapticsPercent: 0,
      warnings: ['Binaural.', 'Deep.'],
    });
    const [stored] = await db
      .select({ fileIds: playlists.publicFileIds, triggerIds: playlists.publicTriggerIds })
      .from(playlists)
      .where(eq(playlists.id, p.core.id));
    expect(stored).toEqual({ fileIds: [f.locked.id], triggerIds: [t.zeta.id] });
  });
});
