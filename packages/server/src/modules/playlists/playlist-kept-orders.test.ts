import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createPlaylist } from '../../test/library-factories.ts';
import { KEPT_ORDER_ROWS } from './playlists.repo.ts';

// The first KEPT_ORDER_ROWS of a list sorted by what the playlists generation follows are slices
// of its kept order, their rows read fresh (playlists.repo.ts). Without kept answers, so that each
// request goes through the kept order: pages past it, edits and ratings must show as computed.
const { app } = await createTestApp({ libraryCacheSeconds: 0 });
const db = app.ctx.db;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000);

// The first user is the site owner, whose playlists nobody rates.
await createSignedInUser(app, { username: 'owner' });
const creator = await createSignedInUser(app, { username: 'wavemaker' });
const listener = await createSignedInUser(app, { username: 'listener' });
// More waves than the kept order holds, one a day: newest first is the reverse of creation.
const waves: { id: number; name: string }[] = [];
for (let n = 1; n <= KEPT_ORDER_ROWS + 5; n++) {
  const { id } = await createPlaylist(db, {
    name: `Wave ${String(n).padStart(2, '0')}`,
    creatorId: creator.id,
    dateCreated: day(n),
  });
  waves.push({ id, name: `Wave ${String(n).padStart(2, '0')}` });
}
const newestFirst = [...waves].reverse().map((w) => w.name);

async function page(query: string) {
  const res = await app.inject({ method: 'GET', url: `/api/playlists?simple=true&${query}` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as {
    playlists: { name: string; description: string; likes: number }[];
    totalItems: number;
  };
  return { playlists: body.playlists, names: body.playlists.map((pl) => pl.name), total: body.totalItems };
}

/** A creator's edit of their own playlist through the API. */
const edit = (payload: object) =>
  app.inject({ method: 'PUT', url: '/api/playlists', headers: authHeader(creator.token), payload });

/** The listener likes a playlist. */
async function like(playlistId: number) {
  const res = await app.inject({
    method: 'PUT',
    url: '/api/playlist/user',
    headers: authHeader(listener.token),
    payload: { id: playlistId, isLiked: true },
  });
  expect(res.statusCode).toBe(200);
}

/** A change no trigger sees: a witness of what is kept, which shows once it is read again. */
const unseen = (change: ReturnType<typeof sql>) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(change);
  });

describe('a list sliced from its kept order', () => {
  it('pages within the kept order and past it as the sort index walks them', async () => {
    const total = KEPT_ORDER_ROWS + 5;
    for (const pageOffset of [0, 12, KEPT_ORDER_ROWS - 12, KEPT_ORDER_ROWS - 6, KEPT_ORDER_ROWS]) {
      const { names, total: counted } = await page(`searchQuery=wave&pageSize=12&pageOffset=${pageOffset}`);
      expect({ pageOffset, names, counted }).toEqual({
        pageOffset,
        names: newestFirst.slice(pageOffset, pageOffset + 12),
        counted: total,
      });
    }
    expect(await page(`searchQuery=wave&pageSize=12&pageOffset=${total}`)).toMatchObject({
      names: [],
      total,
    });
  });

  it("shows a creator's edit at once: the row's new text, and the search's new matches", async () => {
    expect((await page('searchQuery=wave&pageSize=3')).names).toEqual(newestFirst.slice(0, 3));
    const newest = waves[waves.length - 1];
    expect((await edit({ id: newest.id, description: 'A calm tide.' })).statusCode).toBe(200);
    expect((await page('searchQuery=wave&pageSize=3')).playlists[0]).toMatchObject({
      name: newest.name,
      description: 'A calm tide.',
    });
    expect(await page('searchQuery=tide')).toMatchObject({ names: [newest.name], total: 1 });
    expect((await edit({ id: newest.id, name: 'Still water' })).statusCode).toBe(200);
    expect(await page('searchQuery=wave&pageSize=3')).toMatchObject({
      names: newestFirst.slice(1, 4),
      total: KEPT_ORDER_ROWS + 4,
    });
    expect((await edit({ id: newest.id, name: newest.name })).statusCode).toBe(200);
  });

  it('shows a like at once, in the row and in the order by likes (which is never kept)', async () => {
    const oldest = waves[0];
    await like(oldest.id);
    // Newest first, the oldest wave is on the last page: its row is read fresh.
    const last = await page(`searchQuery=wave&pageSize=12&pageOffset=${KEPT_ORDER_ROWS - 12 + 5}`);
    expect(last.playlists.at(-1)).toMatchObject({ name: oldest.name, likes: 1 });
    expect((await page('sort=likes&pageSize=1')).playlists[0]).toMatchObject({ name: oldest.name, likes: 1 });
  });

  it("merges a viewer's own hidden playlists into the shared order, in place and counted", async () => {
    // Wave 50's day, and the newest of all: one lands inside the first page, one at its top.
    const asOwner = async (query: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/playlists?simple=true&${query}`,
        headers: authHeader(listener.token),
      });
      return {
        names: res.json().playlists.map((pl: { name: string }) => pl.name),
        total: res.json().totalItems,
      };
    };
    await createPlaylist(db, {
      name: 'Wave draft',
      creatorId: listener.id,
      isPublic: false,
      dateCreated: day(999),
    });
    await createPlaylist(db, {
      name: 'Wave notes',
      creatorId: listener.id,
      isPublic: false,
      dateCreated: new Date(day(KEPT_ORDER_ROWS + 3).getTime() + 1),
    });
    await createPlaylist(db, { name: 'Calm notes', creatorId: listener.id, isPublic: false });
    const total = KEPT_ORDER_ROWS + 5;
    expect(await asOwner('searchQuery=wave&pageSize=4')).toEqual({
      names: ['Wave draft', newestFirst[0], newestFirst[1], 'Wave notes'],
      total: total + 2,
    });
    expect(await asOwner(`searchQuery=wave&pageSize=12&pageOffset=${KEPT_ORDER_ROWS - 12}`)).toEqual({
      names: [...newestFirst.slice(KEPT_ORDER_ROWS - 14, KEPT_ORDER_ROWS - 2)],
      total: total + 2,
    });
    // Everyone else sees the public ones only.
    expect(await page('searchQuery=wave&pageSize=4')).toMatchObject({
      names: newestFirst.slice(0, 4),
      total,
    });
  });

  it("keeps a page's rows while the playlists are unchanged, their rating counts read fresh when answers are not kept", async () => {
    const newest = waves[waves.length - 1];
    const first = async () => (await page('searchQuery=wave&pageSize=1')).playlists[0];
    const before = await first();
    expect(before.name).toBe(newest.name);
    // While the row is kept, the witness does not show.
    await unseen(sql`update playlists set name = 'Wave unseen' where id = ${newest.id}`);
    expect((await first()).name).toBe(newest.name);
    await like(newest.id);
    expect(await first()).toMatchObject({ name: newest.name, likes: before.likes + 1 });
    // A logged change of other playlists leaves the row kept; one of its own reads it again.
    const other = await createPlaylist(db, {
      name: 'Calm shore',
      creatorId: creator.id,
      dateCreated: day(0),
    });
    await db.execute(sql`update playlists set description = 'Calmer' where id = ${other.id}`);
    expect((await first()).name).toBe(newest.name);
    await db.execute(sql`update playlists set description = description where id = ${newest.id}`);
    expect(await first()).toMatchObject({ name: 'Wave unseen', likes: before.likes + 1 });
    // So does a change that is not logged row by row (an entry): every kept row is read again.
    await unseen(sql`update playlists set name = 'Wave unseen again' where id = ${newest.id}`);
    await db.execute(sql`delete from playlist_files where playlist_id = ${other.id}`);
    expect((await first()).name).toBe('Wave unseen again');
    await db.execute(sql`update playlists set name = ${newest.name} where id = ${newest.id}`);
  });

  it('keeps an order through edits that leave it alone, and computes it again after one that moves a row', async () => {
    const [oldest, second] = waves;
    const other = await createPlaylist(db, {
      name: 'Deep forest',
      creatorId: creator.id,
      dateCreated: day(0),
    });
    const edited = async (payload: object) => expect((await edit(payload)).statusCode).toBe(200);
    const firstThree = async () => (await page('searchQuery=wave&pageSize=3')).names;
    expect(await firstThree()).toEqual(newestFirst.slice(0, 3));
    // While the order is kept, the witness (the oldest wave made the newest) does not show.
    await unseen(sql`update playlists set date_created = ${day(10_000)} where id = ${oldest.id}`);
    // A playlist the search never matched, and a wave that keeps its match and its day.
    await edited({ id: other.id, description: 'Pines and moss.' });
    await edited({ id: second.id, description: 'Rolling in.' });
    expect(await firstThree()).toEqual(newestFirst.slice(0, 3));
    // A wave that no longer matches: the order is computed again, and the witness shows.
    await edited({ id: second.id, name: 'Still water' });
    expect(await page('searchQuery=wave&pageSize=3')).toMatchObject({
      names: [oldest.name, ...newestFirst.slice(0, 2)],
      total: KEPT_ORDER_ROWS + 4,
    });
    await edited({ id: second.id, name: second.name, description: '' });
    await db.execute(sql`update playlists set date_created = ${day(1)} where id = ${oldest.id}`);
    expect(await firstThree()).toEqual(newestFirst.slice(0, 3));

    // A wave renamed away and back: computed again, for the order may have been read between the two.
    await unseen(sql`update playlists set date_created = ${day(10_000)} where id = ${oldest.id}`);
    await edited({ id: second.id, name: 'Still water' });
    await edited({ id: second.id, name: second.name });
    expect(await firstThree()).toEqual([oldest.name, ...newestFirst.slice(0, 2)]);
    await db.execute(sql`update playlists set date_created = ${day(1)} where id = ${oldest.id}`);
  });

  it('gives a list by likes, and a page past the kept order, the total of the kept order: new after a change', async () => {
    const total = KEPT_ORDER_ROWS + 5;
    const totals = async () => [
      (await page('searchQuery=wave&sort=likes&pageSize=2')).total,
      (await page(`searchQuery=wave&pageSize=2&pageOffset=${KEPT_ORDER_ROWS}`)).total,
    ];
    expect(await totals()).toEqual([total, total]);
    // A wave that no longer matches, unseen: the totals are the kept order's, not counted again.
    const [oldest, second] = waves;
    await unseen(sql`update playlists set name = 'Calm' where id = ${oldest.id}`);
    expect(await totals()).toEqual([total, total]);
    // Another wave renamed away through the API: counted again, the unseen change with it.
    expect((await edit({ id: second.id, name: 'Still water' })).statusCode).toBe(200);
    expect(await totals()).toEqual([total - 2, total - 2]);
    expect((await edit({ id: second.id, name: second.name })).statusCode).toBe(200);
    expect((await edit({ id: oldest.id, name: oldest.name })).statusCode).toBe(200);
    expect(await totals()).toEqual([total, total]);
  });
});
