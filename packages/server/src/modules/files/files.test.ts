import type { FileSortType } from '@mesmer/shared/api/files';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, fileTriggers, keptGenerations, triggers } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import {
  createFile,
  createTag,
  createTier,
  createTrigger,
  grantMembership,
  setHideLockedFiles,
} from '../../test/library-factories.ts';
import { COMMON_TRIGGER_LINKS, createFilesRepo, type FileFilter, KEPT_ORDER_ROWS } from './files.repo.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const day = (n: number) => new Date(Date.UTC(2026, 4, n));

type Signed = TestUser & { token: string };
let owner: Signed;
let alice: Signed;
let bob: Signed;
let moderator: Signed;
let supporter: Signed;
let devotee: Signed;
let lapsed: Signed;
const f: Record<string, Awaited<ReturnType<typeof createFile>>> = {};
let sleep: Awaited<ReturnType<typeof createTrigger>>;
let calmTag: Awaited<ReturnType<typeof createTag>>;

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  alice = await createSignedInUser(app, { username: 'alicecreator', roles: ['Verified Creator'] });
  bob = await createSignedInUser(app, { username: 'bob' });
  moderator = await createSignedInUser(app, { username: 'moddy', roles: ['Moderator'] });
  supporter = await createSignedInUser(app, { username: 'supporter' });
  devotee = await createSignedInUser(app, { username: 'devotee' });
  lapsed = await createSignedInUser(app, { username: 'lapsed' });
  await createTier(db, {
    id: 't1',
    creatorName: 'Mesmer',
    title: 'Supporter',
    rank: 1,
    creatorUserId: owner.id,
  });
  await createTier(db, {
    id: 't2',
    creatorName: 'Mesmer',
    title: 'Devotee',
    rank: 2,
    creatorUserId: owner.id,
  });
  await grantMembership(db, supporter.id, 't1');
  await grantMembership(db, devotee.id, 't2');
  await grantMembership(db, lapsed.id, 't2', false);
  sleep = await createTrigger(db, { name: 'Sleep Now', creatorId: owner.id });
  calmTag = await createTag(db, 'calm');

  f.alpha = await createFile(db, {
    name: 'Alpha Induction',
    description: 'Counting down slowly.',
    fileType: 1,
    authorId: owner.id,
    duration: 600_000,
    plays: 50,
    releaseDate: day(1),
    haptics: true,
    script: true,
    warnings: ['Binaural beats.'],
    triggers: [{ id: sleep.id, trains: true }],
    tagIds: [calmTag.id],
    trackNumber: 1,
  });
  f.beta = await createFile(db, {
    name: 'Beta Deepener',
    description: 'Drift with the ocean waves.',
    fileType: 2,
    authorId: owner.id,
    duration: 1_200_000,
    plays: 500,
    releaseDate: day(2),
  });
  f.gamma = await createFile(db, {
    name: 'Gamma Trigger',
    fileType: 3,
    authorId: alice.id,
    duration: 2_000_000,
    plays: 5,
    releaseDate: day(3),
    haptics: true,
    tierIds: ['t1'],
    triggers: [{ id: sleep.id }],
  });
  f.delta = await createFile(db, {
    name: 'Delta Music',
    fileType: 7,
    authorId: alice.id,
    duration: 3_000_000,
    plays: 1000,
    releaseDate: day(4),
  });
  f.epsilon = await createFile(db, {
    name: 'Epsilon Private',
    fileType: 4,
    authorId: alice.id,
    duration: 300_000,
    releaseDate: day(5),
    isPublic: false,
    userUploaded: true,
  });
  f.zeta = await createFile(db, {
    name: 'Zeta AI',
    fileType: 9,
    authorId: owner.id,
    duration: 100_000,
    plays: 20,
    releaseDate: day(6),
    tierIds: ['t2'],
  });
});

async function list(query: string, token?: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/files${query ? `?${query}` : ''}`,
    headers: token ? authHeader(token) : {},
  });
  return res;
}
async function names(query: string, token?: string) {
  const res = await list(query, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files.map((file: { name: string }) => file.name);
}

describe('GET /api/files', () => {
  it('lists public files, newest first, with the total', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalItems).toBe(5);
    expect(body.files.map((x: { id: number }) => x.id)).toEqual([
      f.zeta.id,
      f.delta.id,
      f.gamma.id,
      f.beta.id,
      f.alpha.id,
    ]);
  });

  it('answers every field of a file', async () => {
    const body = (await list(`uuid=${f.alpha.uuid}`)).json();
    const url = (kind: string, ext: string) =>
      expect.stringMatching(
        new RegExp(
          `^/media/${kind}/${f.alpha.uuid}\\.${ext}\\?file=${f.alpha.id}&exp=\\d+&sig=[0-9a-f]{64}$`,
        ),
      );
    expect(body).toEqual({
      totalItems: 1,
      files: [
        {
          id: f.alpha.id,
          uuid: f.alpha.uuid,
          name: 'Alpha Induction',
          description: 'Counting down slowly.',
          triggers: [{ id: sleep.id, uuid: sleep.uuid, name: 'Sleep Now', trains: true }],
          patreonTiers: [],
          fileType: 1,
          tags: [{ id: calmTag.id, name: 'calm' }],
          trackNumber: 1,
          releaseDate: '2026-05-01T00:00:00.000Z',
          isPublic: true,
          plays: 50,
          duration: 600_000,
          audioURL: url('audio', 'wav'),
          audioType: 'audio/wav',
          scriptURL: url('scripts', 'txt'),
          hapticsURL: url('haptics', 'json'),
          hasHaptics: true,
          isLocked: false,
          warnings: [{ text: 'Binaural beats.' }],
          author: { id: owner.id, username: 'owner', patreonName: 'Mesmer' },
          uploaderId: owner.id,
          userUploaded: false,
        },
      ],
    });
  });

  it('sorts by each sort type in both directions', async () => {
    expect(await names('sortType=date&sortDirection=asc')).toEqual([
      'Alpha Induction',
      'Beta Deepener',
      'Gamma Trigger',
      'Delta Music',
      'Zeta AI',
    ]);
    expect(await names('sortType=name&sortDirection=asc')).toEqual([
      'Alpha Induction',
      'Beta Deepener',
      'Delta Music',
      'Gamma Trigger',
      'Zeta AI',
    ]);
    expect(await names('sortType=name&sortDirection=desc')).toEqual([
      'Zeta AI',
      'Gamma Trigger',
      'Delta Music',
      'Beta Deepener',
      'Alpha Induction',
    ]);
    expect(await names('sortType=duration&sortDirection=asc')).toEqual([
      'Zeta AI',
      'Alpha Induction',
      'Beta Deepener',
      'Gamma Trigger',
      'Delta Music',
    ]);
    expect(await names('sortType=playcount&sortDirection=desc')).toEqual([
      'Delta Music',
      'Beta Deepener',
      'Alpha Induction',
      'Zeta AI',
      'Gamma Trigger',
    ]);
    expect(await names('sortType=playcount&sortDirection=asc')).toEqual([
      'Gamma Trigger',
      'Zeta AI',
      'Alpha Induction',
      'Beta Deepener',
      'Delta Music',
    ]);
  });

  it('pages with pageSize and pageOffset, keeping the total', async () => {
    const body = (await list('pageSize=2&pageOffset=2')).json();
    expect(body.totalItems).toBe(5);
    expect(body.files.map((x: { name: string }) => x.name)).toEqual(['Gamma Trigger', 'Beta Deepener']);
    const past = (await list('pageSize=2&pageOffset=10')).json();
    expect(past).toEqual({ files: [], totalItems: 5 });
  });

  it('filters by duration, type, creator and haptics', async () => {
    expect(await names('minDuration=600000&maxDuration=2000000')).toEqual([
      'Gamma Trigger',
      'Beta Deepener',
      'Alpha Induction',
    ]);
    expect(await names('fileTypes=7,9')).toEqual(['Zeta AI', 'Delta Music']);
    expect(await names(`creatorIds=${alice.id}`)).toEqual(['Delta Music', 'Gamma Trigger']);
    expect(await names('showNonHaptics=false')).toEqual(['Gamma Trigger', 'Alpha Induction']);
  });

  it('filters by a used trigger and a trained trigger separately', async () => {
    expect(await names(`trigger=${sleep.id}`)).toEqual(['Gamma Trigger']);
    expect(await names(`trainsTrigger=${sleep.id}`)).toEqual(['Alpha Induction']);
  });

  it('searches names, descriptions (full text), trigger names and authors', async () => {
    expect(await names('searchQuery=ocean')).toEqual(['Beta Deepener']);
    expect(await names('searchQuery=inductions')).toEqual(['Alpha Induction']);
    expect(await names('searchQuery=gamm')).toEqual(['Gamma Trigger']);
    expect(await names('searchQuery=sleep')).toEqual(['Gamma Trigger', 'Alpha Induction']);
    expect(await names('searchQuery=alicecreator')).toEqual(['Delta Music', 'Gamma Trigger']);
    expect(await names('searchQuery=100%25')).toEqual([]);
  });

  it('matches nameQuery against names only', async () => {
    expect(await names('nameQuery=TA')).toEqual(['Zeta AI', 'Delta Music', 'Beta Deepener']);
    expect(await names('nameQuery=ocean')).toEqual([]);
  });

  it('combines filters with a sort', async () => {
    expect(await names('nameQuery=a&fileTypes=1,2,3&sortType=duration&sortDirection=desc')).toEqual([
      'Gamma Trigger',
      'Beta Deepener',
      'Alpha Induction',
    ]);
  });

  it('shows private files to their owner and to readers of all files only', async () => {
    expect(await names('fileTypes=4')).toEqual([]);
    expect(await names('fileTypes=4', bob.token)).toEqual([]);
    expect(await names('fileTypes=4', alice.token)).toEqual(['Epsilon Private']);
    expect(await names('fileTypes=4', moderator.token)).toEqual(['Epsilon Private']);
    expect((await list(`uuid=${f.epsilon.uuid}`)).statusCode).toBe(404);
    expect((await list(`uuid=${f.epsilon.uuid}`, bob.token)).json()).toEqual({ error: 'File not found.' });
    expect((await list(`uuid=${f.epsilon.uuid}`, alice.token)).json().totalItems).toBe(1);
  });

  it('lists my uploads with myFiles, and needs a session for it', async () => {
    expect((await list('myFiles=true')).statusCode).toBe(401);
    expect(await names('myFiles=true', alice.token)).toEqual([
      'Epsilon Private',
      'Delta Music',
      'Gamma Trigger',
    ]);
    expect(await names('myFiles=true', bob.token)).toEqual([]);
  });

  it('locks tiered files: no media URLs without an entitled membership', async () => {
    const gamma = (await list(`uuid=${f.gamma.uuid}`)).json().files[0];
    expect(gamma).toMatchObject({
      isLocked: true,
      audioURL: null,
      scriptURL: null,
      hapticsURL: null,
      hasHaptics: true,
      patreonTiers: [{ id: 't1', name: 'Supporter', rank: 1 }],
    });
    const lockedFor = async (token?: string) =>
      (await list('', token))
        .json()
        .files.filter((x: { isLocked: boolean }) => x.isLocked)
        .map((x: { name: string }) => x.name);
    expect(await lockedFor()).toEqual(['Zeta AI', 'Gamma Trigger']);
    expect(await lockedFor(bob.token)).toEqual(['Zeta AI', 'Gamma Trigger']);
    expect(await lockedFor(lapsed.token)).toEqual(['Zeta AI', 'Gamma Trigger']);
    expect(await lockedFor(supporter.token)).toEqual(['Zeta AI']);
    expect(await lockedFor(devotee.token)).toEqual([]);
    expect(await lockedFor(alice.token)).toEqual(['Zeta AI']);
    expect(await lockedFor(owner.token)).toEqual([]);
    expect(await lockedFor(moderator.token)).toEqual([]);
  });

  it('leaves out locked files with showLocked=false or the hideLockedFiles setting', async () => {
    expect(await names('showLocked=false')).toEqual(['Delta Music', 'Beta Deepener', 'Alpha Induction']);
    expect(await names('showLocked=false', supporter.token)).toEqual([
      'Delta Music',
      'Gamma Trigger',
      'Beta Deepener',
      'Alpha Induction',
    ]);
    await setHideLockedFiles(db, bob.id, true);
    const res = await list('', bob.token);
    expect(res.json().totalItems).toBe(3);
    await setHideLockedFiles(db, bob.id, false);
    expect((await list('', bob.token)).json().totalItems).toBe(5);
  });

  it("lets the page's showLocked win over the hideLockedFiles setting; without it the setting decides", async () => {
    const everything = ['Zeta AI', 'Delta Music', 'Gamma Trigger', 'Beta Deepener', 'Alpha Induction'];
    const unlocked = ['Delta Music', 'Beta Deepener', 'Alpha Induction'];
    await setHideLockedFiles(db, bob.id, true);
    try {
      const shown = await list('showLocked=true', bob.token);
      expect(shown.json().totalItems).toBe(5);
      expect(
        shown.json().files.map((x: { name: string; isLocked: boolean }) => [x.name, x.isLocked]),
      ).toEqual(everything.map((name) => [name, name === 'Zeta AI' || name === 'Gamma Trigger']));
      expect(await names('showLocked=1', bob.token)).toEqual(everything);
      expect(await names('showLocked=false', bob.token)).toEqual(unlocked);
      expect(await names('', bob.token)).toEqual(unlocked);
    } finally {
      await setHideLockedFiles(db, bob.id, false);
    }
    expect(await names('', bob.token)).toEqual(everything);
    expect(await names('showLocked=false', bob.token)).toEqual(unlocked);
    expect(await names('')).toEqual(everything);
  });

  it('rejects bad input naming the field', async () => {
    for (const [query, field] of [
      ['sortType=random', 'sortType'],
      ['sortDirection=up', 'sortDirection'],
      ['fileTypes=a,b', 'fileTypes'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=1000', 'pageSize'],
      ['minDuration=-1', 'minDuration'],
      ['showLocked=maybe', 'showLocked'],
      ['uuid=not-a-uuid', 'uuid'],
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field, query).toBe(field);
      expect(res.json().error, query).toMatch(new RegExp(`^${field}: `));
    }
  });
});

describe('files repo query shapes', () => {
  const anonymous = {
    id: null,
    readsAllFiles: false,
    entitledTierIds: new Set<string>(),
    hideLockedFiles: false,
  };
  const newestFirst = { type: 'date', direction: 'desc' } as const;
  const listNames = async (filter: FileFilter) => {
    const { rows, total } = await createFilesRepo(db, app.ctx.readCache).list(
      filter,
      anonymous,
      newestFirst,
      {
        limit: 20,
        offset: 0,
      },
    );
    expect(total).toBe(rows.length);
    return rows.map((row) => row.name);
  };

  it('lists the same files whether a trigger links few files or many', async () => {
    for (const links of [1, COMMON_TRIGGER_LINKS + 1]) {
      expect(await listNames({ usesTrigger: { triggerId: sleep.id, links } })).toEqual(['Gamma Trigger']);
      expect(await listNames({ trainsTrigger: { triggerId: sleep.id, links } })).toEqual(['Alpha Induction']);
    }
  });

  it('finds what a search names in one lookup', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    expect(await repo.searchTargets('sleep')).toEqual({
      query: 'sleep',
      triggerIds: [sleep.id],
      authorIds: [],
    });
    expect(await repo.searchTargets('ALICECREATOR')).toMatchObject({ triggerIds: [], authorIds: [alice.id] });
    expect(await listNames({ search: await repo.searchTargets('sleep') })).toEqual([
      'Gamma Trigger',
      'Alpha Induction',
    ]);
  });

  it('pages the first rows of a list from its kept order, exact after every change of the library', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    const page = async (sort: FileSortType, limit: number, offset = 0) => {
      const { rows, total } = await repo.list(
        { fileTypes: [1, 2, 7] },
        anonymous,
        { type: sort, direction: 'asc' },
        {
          limit,
          offset,
        },
      );
      return { names: rows.map((row) => row.name), total };
    };
    clock.advance(60_000);
    expect(await page('name', 2)).toEqual({ names: ['Alpha Induction', 'Beta Deepener'], total: 3 });
    expect(await page('name', 2, 2)).toEqual({ names: ['Delta Music'], total: 3 });
    // A page past the kept rows is read as before, in the same order.
    expect(await page('name', KEPT_ORDER_ROWS, 1)).toEqual({
      names: ['Beta Deepener', 'Delta Music'],
      total: 3,
    });

    // A rename raises the library generation: the next page is in the new order.
    await db.update(files).set({ name: 'Omega Induction' }).where(eq(files.id, f.alpha.id));
    expect(await page('name', 2, 1)).toEqual({ names: ['Delta Music', 'Omega Induction'], total: 3 });
    // A file hidden: the order and its total counted again, past the kept rows too.
    await db.update(files).set({ isPublic: false }).where(eq(files.id, f.beta.id));
    expect(await page('name', 3)).toEqual({ names: ['Delta Music', 'Omega Induction'], total: 2 });
    expect(await page('name', KEPT_ORDER_ROWS, 1)).toEqual({ names: ['Omega Induction'], total: 2 });
    await db.update(files).set({ isPublic: true }).where(eq(files.id, f.beta.id));

    // A counted play raises the plays generation alone: the order by play counts is read again at
    // once, orders by anything else stay kept.
    expect(await page('playcount', 3)).toEqual({
      names: ['Omega Induction', 'Beta Deepener', 'Delta Music'],
      total: 3,
    });
    const generations = async () =>
      Object.fromEntries((await db.select().from(keptGenerations)).map((g) => [g.name, g.generation]));
    const before = await generations();
    await db.update(files).set({ plays: 5000 }).where(eq(files.id, f.alpha.id));
    expect(await generations()).toEqual({ ...before, plays: before.plays + 1 });
    expect((await page('playcount', 3)).names).toEqual(['Beta Deepener', 'Delta Music', 'Omega Induction']);
    await db.update(files).set({ name: 'Alpha Induction', plays: 50 }).where(eq(files.id, f.alpha.id));
    expect((await page('name', 3)).names).toEqual(['Alpha Induction', 'Beta Deepener', 'Delta Music']);
  });

  it('reads the rows of a page whole once per library generation, their play counts every time', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    const page = async () => {
      const { rows } = await repo.list(
        { fileTypes: [1, 2] },
        anonymous,
        { type: 'name', direction: 'asc' },
        { limit: 2, offset: 0 },
      );
      return rows.map((row) => ({ name: row.name, plays: row.plays, tags: row.tags.length }));
    };
    clock.advance(60_000);
    expect(await page()).toEqual([
      { name: 'Alpha Induction', plays: 50, tags: 1 },
      { name: 'Beta Deepener', plays: 500, tags: 0 },
    ]);
    // A listen counts a play without a new library generation: the kept rows show it at once.
    await db.update(files).set({ plays: 51 }).where(eq(files.id, f.alpha.id));
    expect(await page()).toEqual([
      { name: 'Alpha Induction', plays: 51, tags: 1 },
      { name: 'Beta Deepener', plays: 500, tags: 0 },
    ]);
    // Any other change raises the generation: the rows are read whole again.
    await db.update(files).set({ description: 'Counting down.' }).where(eq(files.id, f.alpha.id));
    expect(
      (await repo.list({ fileTypes: [1] }, anonymous, newestFirst, { limit: 1, offset: 0 })).rows,
    ).toEqual([expect.objectContaining({ description: 'Counting down.', plays: 51 })]);
    await db
      .update(files)
      .set({ description: 'Counting down slowly.', plays: 50 })
      .where(eq(files.id, f.alpha.id));
  });

  it('counts a list once, in its order newest first, whose total its other orders and later pages take', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    const filter = { fileTypes: [1, 2, 7], onlyHaptics: false };
    const page = async (type: FileSortType, offset = 0) => {
      const { rows, total } = await repo.list(
        filter,
        anonymous,
        { type, direction: 'asc' },
        { limit: 5, offset },
      );
      return { names: rows.map((row) => row.name), total };
    };
    const newest = await repo.list(filter, anonymous, newestFirst, { limit: 5, offset: 0 });
    expect(newest.total).toBe(3);
    // A file hidden where no trigger sees it: the orders computed from now on leave it out, but
    // take the total kept with the order newest first.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(files).set({ isPublic: false }).where(eq(files.id, f.beta.id));
    });
    expect(await page('name')).toEqual({ names: ['Alpha Induction', 'Delta Music'], total: 3 });
    expect(await page('duration', KEPT_ORDER_ROWS)).toEqual({ names: [], total: 3 });
    // A change the triggers see: counted again.
    await db.update(files).set({ isPublic: true }).where(eq(files.id, f.beta.id));
    expect(await page('name')).toEqual({
      names: ['Alpha Induction', 'Beta Deepener', 'Delta Music'],
      total: 3,
    });
    await db.update(files).set({ isPublic: false }).where(eq(files.id, f.beta.id));
    expect(await page('duration', KEPT_ORDER_ROWS)).toEqual({ names: [], total: 2 });
    await db.update(files).set({ isPublic: true }).where(eq(files.id, f.beta.id));
  });

  it('keeps the first rows of a list apart for viewers of different tiers', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    const unlocked = async (tiers: string[]) =>
      (
        await repo.list(
          { fileTypes: [3], onlyUnlocked: true },
          { id: bob.id, readsAllFiles: false, entitledTierIds: new Set(tiers), hideLockedFiles: false },
          newestFirst,
          { limit: 20, offset: 0 },
        )
      ).rows.map((row) => row.name);
    expect(await unlocked([])).toEqual([]);
    expect(await unlocked(['t1'])).toEqual(['Gamma Trigger']);
    expect(await unlocked([])).toEqual([]);
  });

  it('reads few matches first and sorts them, in the order of the sort index', async () => {
    const repo = createFilesRepo(db, app.ctx.readCache);
    for (const type of ['date', 'name', 'duration', 'playcount'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        // Past the kept rows, with the total of the kept order: few matches (FEW_MATCHES).
        const page = async () =>
          (
            await repo.list(
              { onlyHaptics: false },
              anonymous,
              { type, direction },
              {
                limit: KEPT_ORDER_ROWS,
                offset: 1,
              },
            )
          ).rows.map((row) => row.name);
        const walked = await page();
        expect(walked).toHaveLength(4);
        expect(await page()).toEqual(walked);
        const sorted = await repo.list({}, anonymous, { type, direction }, { limit: 5, offset: 0 });
        expect(walked).toEqual(sorted.rows.slice(1).map((row) => row.name));
      }
    }
  });

  it("keeps each file's trigger_ids equal to its links as they are added, changed and removed", async () => {
    const linkedIds = async (fileId: number) =>
      (await db.select({ ids: files.triggerIds }).from(files).where(eq(files.id, fileId)))[0].ids;
    const first = await createTrigger(db, { name: 'First extra', creatorId: alice.id });
    const second = await createTrigger(db, { name: 'Second extra', creatorId: alice.id });
    const file = await createFile(db, {
      authorId: alice.id,
      triggers: [{ id: second.id }, { id: sleep.id, trains: true }],
    });
    expect(await linkedIds(file.id)).toEqual([sleep.id, second.id]);
    await db
      .update(fileTriggers)
      .set({ triggerId: first.id })
      .where(and(eq(fileTriggers.fileId, file.id), eq(fileTriggers.triggerId, sleep.id)));
    expect(await linkedIds(file.id)).toEqual([first.id, second.id]);
    await db.delete(fileTriggers).where(eq(fileTriggers.triggerId, first.id));
    expect(await linkedIds(file.id)).toEqual([second.id]);
    // Deleting a trigger removes its links by cascade, and the file's copy with them.
    await db.delete(triggers).where(eq(triggers.id, second.id));
    expect(await linkedIds(file.id)).toEqual([]);
  });
});

describe('GET /api/tags and /api/creators', () => {
  it('answers the file types and the tags', async () => {
    const body = (await app.inject({ method: 'GET', url: '/api/tags' })).json();
    expect(body.fileTypes).toHaveLength(9);
    expect(body.fileTypes[6]).toEqual({ id: 7, name: 'music' });
    expect(body.fileTypes[8]).toEqual({ id: 9, name: 'ai music' });
    expect(body.tags).toEqual([{ id: calmTag.id, name: 'calm' }]);
  });

  it('lists authors of public files by username', async () => {
    const body = (await app.inject({ method: 'GET', url: '/api/creators' })).json();
    expect(body).toEqual({
      creators: [
        { id: alice.id, username: 'alicecreator' },
        { id: owner.id, username: 'owner' },
      ],
    });
  });

  it('answers everyone the same list, leaving out authors of private files only, and takes no query', async () => {
    const hidden = await createSignedInUser(app, { username: 'quietcreator', roles: ['Verified Creator'] });
    await createFile(db, { name: 'Quiet Draft', fileType: 1, authorId: hidden.id, isPublic: false });
    const expected = {
      creators: [
        { id: alice.id, username: 'alicecreator' },
        { id: owner.id, username: 'owner' },
      ],
    };
    for (const token of [undefined, hidden.token, moderator.token]) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/creators?pageSize=abc',
        headers: token ? authHeader(token) : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
    }
  });
});
