import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createPlaylist } from '../../test/library-factories.ts';

// A search's page is read from its matches sorted (playlists.repo.ts, FEW_MATCHES), with the count
// from the same matches: the pages and totals must be those of the walk along the sort index.
const { app } = await createTestApp();
const db = app.ctx.db;
const day = (n: number) => new Date(Date.UTC(2026, 4, n));

const creator = await createSignedInUser(app, { username: 'tidewriter' });
const other = await createSignedInUser(app, { username: 'someone' });
// Seven public matches with ties in level and date (ties are ordered by id), one hidden, three others.
const specs = [
  { name: 'Tide Low', expLevel: 2, date: 3 },
  { name: 'Evening', description: 'Where the tide turns.', expLevel: 1, date: 5 },
  { name: 'tide pool', expLevel: 3, date: 3 },
  { name: 'High Tide', expLevel: 2, date: 9 },
  { name: 'Riptide', expLevel: 1, date: 1 },
  { name: 'Tide Clock', expLevel: 3, date: 7 },
  { name: 'Tidewater', expLevel: 2, date: 7 },
];
type Match = (typeof specs)[number] & { id: number };
const matches: Match[] = [];
for (const spec of specs) {
  matches.push({
    ...spec,
    ...(await createPlaylist(db, {
      name: spec.name,
      description: spec.description,
      creatorId: creator.id,
      expLevel: spec.expLevel,
      dateCreated: day(spec.date),
    })),
  });
}
await createPlaylist(db, { name: 'Tide Hidden', creatorId: other.id, isPublic: false });
const unrelated = await createPlaylist(db, { name: 'Morning', creatorId: creator.id, dateCreated: day(4) });
await createPlaylist(db, { name: 'Forest', creatorId: creator.id });
await createPlaylist(db, { name: 'Clouds', creatorId: creator.id });

async function page(query: string) {
  const res = await app.inject({ method: 'GET', url: `/api/playlists?simple=true&${query}` });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { playlists: { name: string }[]; totalItems: number };
  return { names: body.playlists.map((pl) => pl.name), total: body.totalItems };
}

const orders: Record<string, (a: Match, b: Match) => number> = {
  datecreated: (a, b) => a.date - b.date || a.id - b.id,
  name: (a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1),
  explevel: (a, b) => a.expLevel - b.expLevel || a.id - b.id,
};

describe('a search of playlists', () => {
  it('pages its matches in every order and direction, with their total', async () => {
    for (const [sort, compare] of Object.entries(orders)) {
      for (const sortDir of ['asc', 'desc'] as const) {
        const sorted = [...matches].sort((a, b) => (sortDir === 'asc' ? compare(a, b) : compare(b, a)));
        for (const pageOffset of [0, 3, 6, 9]) {
          expect({
            sort,
            sortDir,
            pageOffset,
            ...(await page(
              `searchQuery=tide&sort=${sort}&sortDir=${sortDir}&pageSize=3&pageOffset=${pageOffset}`,
            )),
          }).toEqual({
            sort,
            sortDir,
            pageOffset,
            names: sorted.slice(pageOffset, pageOffset + 3).map((m) => m.name),
            total: 7,
          });
        }
      }
    }
  });

  it("counts again after a creator's edit makes another playlist match", async () => {
    expect((await page('searchQuery=tide&sort=datecreated&sortDir=asc&pageSize=3')).total).toBe(7);
    const res = await app.inject({
      method: 'PUT',
      url: '/api/playlists',
      headers: authHeader(creator.token),
      payload: { id: unrelated.id, description: 'Before the tide.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().playlist).toMatchObject({ name: 'Morning', description: 'Before the tide.' });
    expect(await page('searchQuery=tide&sort=datecreated&sortDir=asc&pageSize=3')).toEqual({
      names: ['Riptide', 'Tide Low', 'tide pool'],
      total: 8,
    });
    expect(await page('searchQuery=tide&sort=datecreated&sortDir=asc&pageSize=3&pageOffset=3')).toEqual({
      names: ['Morning', 'Evening', 'Tide Clock'],
      total: 8,
    });
  });
});

// The shared audience's lists without a free value in their filter run one prepared statement per
// shape (playlists.repo.ts, preparedShape): its answers must be those of a statement built each time.
describe('a list without a search', () => {
  const byName = [
    'Clouds',
    'Evening',
    'Forest',
    'High Tide',
    'Morning',
    'Riptide',
    'Tide Clock',
    'Tide Low',
    'tide pool',
    'Tidewater',
  ];

  it('answers the same on every call, counted first and then from the kept total, and after a change', async () => {
    for (let call = 0; call < 2; call++) {
      expect(await page('sort=name&sortDir=asc')).toEqual({ names: byName, total: 10 });
      expect(await page('sort=name&sortDir=desc')).toEqual({ names: [...byName].reverse(), total: 10 });
      expect(await page('sort=name&sortDir=asc&pageSize=3&pageOffset=3')).toEqual({
        names: byName.slice(3, 6),
        total: 10,
      });
    }
    await createPlaylist(db, { name: 'Aurora', creatorId: creator.id });
    expect(await page('sort=name&sortDir=asc')).toEqual({ names: ['Aurora', ...byName], total: 11 });
    // A viewer with a hidden playlist of their own has a list of their own.
    const res = await app.inject({
      method: 'GET',
      url: '/api/playlists?simple=true&sort=name&sortDir=asc',
      headers: authHeader(other.token),
    });
    expect(res.json().totalItems).toBe(12);
    expect(res.json().playlists.map((pl: { name: string }) => pl.name)).toContain('Tide Hidden');
  });
});
