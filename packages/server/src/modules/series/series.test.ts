import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userSeries } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createPlaylist, createSeries, setSeriesPosition } from '../../test/library-factories.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

type Signed = TestUser & { token: string };
let owner: Signed;
let bob: Signed;
let plan: Awaited<ReturnType<typeof createSeries>>;
let other: Awaited<ReturnType<typeof createSeries>>;
const days: Awaited<ReturnType<typeof createPlaylist>>[] = [];

beforeAll(async () => {
  owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  bob = await createSignedInUser(app, { username: 'bob' });
  const file = await createFile(db, { name: 'Day file', authorId: owner.id, duration: 60_000 });
  for (const n of [1, 2, 3]) {
    days.push(
      await createPlaylist(db, { name: `Day ${n}`, creatorId: owner.id, isCore: true, fileIds: [file.id] }),
    );
  }
  plan = await createSeries(db, {
    name: 'Basics',
    description: 'Three days.',
    creatorId: owner.id,
    playlistIds: days.map((d) => d.id),
    dateCreated: new Date('2026-05-01T00:00:00Z'),
  });
  other = await createSeries(db, {
    name: 'Later',
    creatorId: owner.id,
    playlistIds: [days[0].id],
    dateCreated: new Date('2026-05-02T00:00:00Z'),
  });
  await setSeriesPosition(db, bob.id, plan.id, 2);
});

const get = (query: string, token?: string) =>
  app.inject({ method: 'GET', url: `/api/series${query}`, headers: token ? authHeader(token) : {} });
const save = (payload: unknown, token?: string) =>
  app.inject({
    method: 'PUT',
    url: '/api/userseries',
    payload: payload as object,
    headers: token ? authHeader(token) : {},
  });

describe('GET /api/series', () => {
  it('lists plans oldest first without playlists unless asked', async () => {
    const body = (await get('')).json();
    expect(body.series).toEqual([
      {
        id: plan.id,
        uuid: plan.uuid,
        name: 'Basics',
        description: 'Three days.',
        creator: { id: owner.id, username: 'owner' },
        playlistCount: 3,
        position: 1,
        playlists: [],
      },
      expect.objectContaining({ name: 'Later', playlistCount: 1, position: 1 }),
    ]);
  });

  it("answers one plan by id or uuid with the viewer's position and the day playlists in order", async () => {
    const byUuid = (await get(`?uuid=${plan.uuid}&includePlaylists=true`, bob.token)).json().series;
    expect(byUuid.position).toBe(2);
    expect(byUuid.playlists.map((x: { name: string }) => x.name)).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(byUuid.playlists[0]).toMatchObject({ totalDuration: 60_000, fileCount: 1 });
    expect((await get(`?id=${plan.id}`)).json().series).toMatchObject({
      name: 'Basics',
      position: 1,
      playlists: [],
    });
  });

  it('answers 404 for an unknown plan and 400 for a bad id', async () => {
    const res = await get('?uuid=00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Training plan not found.' });
    expect((await get('?id=999999')).statusCode).toBe(404);
    expect((await get('?id=zero')).json().field).toBe('id');
  });
});

describe('PUT /api/userseries', () => {
  const position = async (userId: number, seriesId: number) =>
    (
      await db
        .select()
        .from(userSeries)
        .where(and(eq(userSeries.userId, userId), eq(userSeries.seriesId, seriesId)))
    )[0]?.playlistIndex;

  it('saves the position, capped at one past the last day', async () => {
    expect((await save({ id: other.id, playlistIndex: 2 }, bob.token)).json()).toEqual({
      id: other.id,
      position: 2,
    });
    expect(await position(bob.id, other.id)).toBe(2);
    expect((await save({ id: plan.id, playlistIndex: 99 }, bob.token)).json()).toEqual({
      id: plan.id,
      position: 4,
    });
    expect(await position(bob.id, plan.id)).toBe(4);
    expect((await save({ id: plan.id, playlistIndex: 1 }, bob.token)).json().position).toBe(1);
    expect((await get(`?id=${plan.id}`, bob.token)).json().series.position).toBe(1);
    expect(await position(owner.id, plan.id)).toBeUndefined();
  });

  it('needs a session, a known plan and a position of at least 1', async () => {
    expect((await save({ id: plan.id, playlistIndex: 2 })).statusCode).toBe(401);
    expect((await save({ id: 999_999, playlistIndex: 2 }, bob.token)).statusCode).toBe(404);
    const bad = await save({ id: plan.id, playlistIndex: 0 }, bob.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('playlistIndex');
  });
});
