import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GenerationName } from '../db/kept-generations.ts';
import { createGenerationsReader, sharedReads } from '../db/library-generation.ts';
import { keptChanges, keptGenerations } from '../db/schema/index.ts';
import { authHeader, createSignedInUser, type TestUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import {
  createFile,
  createPlaylist,
  createSeries,
  createTier,
  grantMembership,
} from '../test/library-factories.ts';
import { createReadCache } from './read-cache.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const { app: uncached } = await createTestApp({ libraryCacheSeconds: 0 });

type Signed = TestUser & { token: string };
let alice: Signed;
let bob: Signed;

beforeAll(async () => {
  alice = await createSignedInUser(app, { username: 'alice' });
  bob = await createSignedInUser(app, { username: 'bob' });
  await createFile(db, { name: 'Public spiral', authorId: alice.id });
  await createFile(db, { name: 'Alice draft', authorId: alice.id, isPublic: false });
});

const generationOf = async (name: GenerationName) =>
  (await db.select().from(keptGenerations).where(sql`${keptGenerations.name} = ${name}`))[0].generation;
const generation = () => generationOf('files');

async function files(token?: string) {
  const res = await app.inject({
    url: '/api/files?sortType=name&sortDirection=asc',
    headers: token ? authHeader(token) : {},
  });
  expect(res.statusCode).toBe(200);
  const names = (res.json() as { files: { name: string }[] }).files.map((f) => f.name);
  return { cache: res.headers['x-cache'], type: res.headers['content-type'], names, body: res.body };
}

describe('kept answers of the library read calls', () => {
  it('answers a repeated request from the kept answer, per owner or per audience', async () => {
    clock.advance(60_000); // nothing kept from earlier requests
    const first = await files();
    expect(first).toMatchObject({ cache: 'miss', names: ['Public spiral'] });
    const again = await files();
    expect(again.cache).toBe('hit');
    expect(again.body).toBe(first.body);
    expect([first.type, again.type]).toEqual([
      'application/json; charset=utf-8',
      'application/json; charset=utf-8',
    ]);

    // An owner of files has answers of their own: their private file is in them, and only there.
    expect(await files(alice.token)).toMatchObject({
      cache: 'miss',
      names: ['Alice draft', 'Public spiral'],
    });
    expect(await files(alice.token)).toMatchObject({ cache: 'hit', names: ['Alice draft', 'Public spiral'] });
    // A signed-in viewer who owns nothing sees what anonymous visitors see, and shares their answer.
    expect(await files(bob.token)).toMatchObject({ cache: 'hit', names: ['Public spiral'] });
    expect(await files()).toMatchObject({ cache: 'hit', names: ['Public spiral'] });
    // Once a viewer owns a file, their answers are their own.
    const dave = await createSignedInUser(app, { username: 'dave' });
    expect(await files(dave.token)).toMatchObject({ cache: 'hit', names: ['Public spiral'] });
    await createFile(db, { name: 'Dave draft', authorId: dave.id, isPublic: false });
    expect(await files(dave.token)).toMatchObject({ cache: 'miss', names: ['Dave draft', 'Public spiral'] });
    expect(await files()).toMatchObject({ cache: 'miss', names: ['Public spiral'] });
  });

  it('shares simple playlist lists with every visitor whatever their tiers; lists with files per tier set', async () => {
    await createPlaylist(db, { name: 'Shared waves', creatorId: alice.id });
    const tier = await createTier(db);
    const member = await createSignedInUser(app, { username: 'member' });
    await grantMembership(db, member.id, tier.id);
    const playlistsAs = async (url: string, token?: string) =>
      (await app.inject({ url, headers: token ? authHeader(token) : {} })).headers['x-cache'];
    clock.advance(60_000); // nothing kept from earlier requests
    expect(await playlistsAs('/api/playlists?simple=true')).toBe('miss');
    expect(await playlistsAs('/api/playlists?simple=true', member.token)).toBe('hit');
    expect(await playlistsAs('/api/playlists')).toBe('miss');
    // With their files, locks differ by tier: the member's answer is their audience's own.
    expect(await playlistsAs('/api/playlists', member.token)).toBe('miss');
    expect(await playlistsAs('/api/playlists', member.token)).toBe('hit');
    await db.execute(sql`delete from playlists where name = 'Shared waves'`);
  });

  it('shows a change made straight in the database on the next request', async () => {
    await files();
    expect((await files()).cache).toBe('hit');
    await db.execute(sql`update files set name = 'Renamed spiral' where name = 'Public spiral'`);
    expect(await files()).toMatchObject({ cache: 'miss', names: ['Renamed spiral'] });
    expect(await files()).toMatchObject({ cache: 'hit', names: ['Renamed spiral'] });
  });

  it('shows a change made through the API to its author and to everyone else', async () => {
    const list = async (token?: string) => {
      const res = await app.inject({
        url: '/api/playlists?simple=true',
        headers: token ? authHeader(token) : {},
      });
      return (res.json() as { playlists: { name: string }[] }).playlists.map((p) => p.name);
    };
    expect(await list()).toEqual([]);
    expect(await list(alice.token)).toEqual([]);
    const created = await app.inject({
      method: 'POST',
      url: '/api/playlists',
      headers: authHeader(alice.token),
      payload: { name: 'Fresh playlist', expLevel: 1, isPublic: true },
    });
    expect(created.statusCode).toBe(201);
    expect(await list(alice.token)).toEqual(['Fresh playlist']);
    expect(await list()).toEqual(['Fresh playlist']);
  });

  it('keeps an answer at most LIBRARY_CACHE_SECONDS (5 s by default)', async () => {
    await files();
    clock.advance(4_900);
    expect((await files()).cache).toBe('hit');
    clock.advance(200);
    expect((await files()).cache).toBe('miss');
    // A clock set back (tests move it both ways) does not keep answers alive either.
    clock.advance(-60_000);
    expect((await files()).cache).toBe('miss');
  });

  it("keeps everyone's answers through another user's favourites, ratings and plan progress; the writer's own are computed for them", async () => {
    const carol = await createSignedInUser(app, { username: 'carol' });
    const playlist = await createPlaylist(db, { name: 'Rated list', creatorId: carol.id });
    const plan = await createSeries(db, { name: 'Plan', creatorId: carol.id, playlistIds: [playlist.id] });
    const ask = async (url: string, token?: string) => {
      const res = await app.inject({ url, headers: token ? authHeader(token) : {} });
      expect(res.statusCode).toBe(200);
      return { cache: res.headers['x-cache'], body: res.json() };
    };
    const send = async (method: 'PUT', url: string, token: string, payload: object) => {
      const res = await app.inject({ method, url, headers: authHeader(token), payload });
      expect(res.statusCode).toBe(200);
    };
    const playlistsUrl = '/api/playlists?simple=true';
    const favouritesUrl = '/api/playlists?simple=true&favorited=true';
    const plansUrl = '/api/series';
    const likesOf = (body: { playlists: { name: string; likes: number }[] }) =>
      body.playlists.find((p) => p.name === 'Rated list')?.likes;
    const positionOf = (body: { series: { name: string; position: number }[] }) =>
      body.series.find((s) => s.name === 'Plan')?.position;

    // Lists are kept for Alice (an owner), anonymous visitors and Bob (who shares theirs).
    for (const token of [alice.token, undefined, bob.token]) await ask(playlistsUrl, token);
    for (const token of [alice.token, undefined, bob.token])
      expect((await ask(playlistsUrl, token)).cache).toBe('hit');
    // Plans carry a signed-in user's own progress: kept for anonymous visitors only.
    await ask(plansUrl);
    expect((await ask(plansUrl)).cache).toBe('hit');
    expect((await ask(plansUrl, bob.token)).cache).toBeUndefined();
    expect((await ask(favouritesUrl, bob.token)).body.playlists).toEqual([]);

    await send('PUT', '/api/playlist/user', bob.token, { id: playlist.id, isLiked: true, isFavorite: true });
    await send('PUT', '/api/userseries', bob.token, { id: plan.id, playlistIndex: 2 });

    expect((await ask(playlistsUrl, alice.token)).cache).toBe('hit');
    expect((await ask(playlistsUrl)).cache).toBe('hit');
    expect((await ask(plansUrl)).cache).toBe('hit');
    // Bob's list is everyone's: its like count is as old as theirs. His favourites and progress
    // are his own, and he sees them on his next request.
    const shared = await ask(playlistsUrl, bob.token);
    expect({ cache: shared.cache, likes: likesOf(shared.body) }).toEqual({ cache: 'hit', likes: 0 });
    const favourites = await ask(favouritesUrl, bob.token);
    expect(favourites.body.playlists.map((p: { name: string }) => p.name)).toEqual(['Rated list']);
    expect(positionOf((await ask(plansUrl, bob.token)).body)).toBe(2);
    // Others see the new like count once their kept answer is LIBRARY_CACHE_SECONDS old.
    expect(likesOf((await ask(playlistsUrl)).body)).toBe(0);
    clock.advance(5_000);
    expect(likesOf((await ask(playlistsUrl, alice.token)).body)).toBe(1);

    // A write to the library still drops every kept answer.
    for (const token of [alice.token, undefined, bob.token]) await ask(playlistsUrl, token);
    await db.execute(sql`update playlists set name = name`);
    expect((await ask(playlistsUrl, alice.token)).cache).toBe('miss');
    expect((await ask(playlistsUrl)).cache).toBe('miss');
    // Bob shares the anonymous answer just computed.
    expect((await ask(playlistsUrl, bob.token)).cache).toBe('hit');
  });

  it('is off with LIBRARY_CACHE_SECONDS=0', async () => {
    const first = await uncached.inject({ url: '/api/files' });
    const second = await uncached.inject({ url: '/api/files' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBeUndefined();
    expect(second.headers['x-cache']).toBeUndefined();
  });
});

describe('the generations of the library', () => {
  // Every table a kept answer reads, by the generation it raises (db/kept-generations.ts). A
  // statement trigger fires even when no row matches.
  const watched: [GenerationName, string][] = [
    ...['membership_tiers', 'file_tiers', 'triggers', 'file_triggers', 'tags', 'file_tags'].map(
      (table): [GenerationName, string] => ['files', table],
    ),
    ...['playlist_files', 'series', 'series_playlists'].map((table): [GenerationName, string] => [
      'playlists',
      table,
    ]),
  ];
  // What only one user sees raises no generation: answers that read it are computed each time.
  const personal = ['playlist_ratings', 'user_series', 'user_triggers'];

  it.each(watched)('%s rises with every write to %s', async (name, table) => {
    const before = await generationOf(name);
    await db.execute(sql`delete from ${sql.identifier(table)} where false`);
    // More than one for file_triggers: the files' trigger_ids follow their links.
    expect(await generationOf(name)).toBeGreaterThan(before);
  });

  it("a playlist's change raises the playlists generation only: file lists stay kept", async () => {
    const playlist = await createPlaylist(db, { name: 'Edited list', creatorId: alice.id });
    await files();
    expect((await files()).cache).toBe('hit');
    const before = { files: await generationOf('files'), playlists: await generationOf('playlists') };
    const res = await app.inject({
      method: 'PUT',
      url: '/api/playlists',
      headers: authHeader(alice.token),
      payload: { id: playlist.id, description: 'Edited' },
    });
    expect(res.statusCode).toBe(200);
    expect({ files: await generationOf('files'), playlists: await generationOf('playlists') }).toEqual({
      files: before.files,
      playlists: before.playlists + 1,
    });
    expect((await files()).cache).toBe('hit');
  });

  it.each(personal)('does not rise with writes to %s', async (table) => {
    const before = { files: await generationOf('files'), playlists: await generationOf('playlists') };
    await db.execute(sql`delete from ${sql.identifier(table)} where false`);
    await db.execute(sql`update ${sql.identifier(table)} set user_id = user_id where false`);
    expect({ files: await generationOf('files'), playlists: await generationOf('playlists') }).toEqual(
      before,
    );
  });

  // By each written row (logged for kept orders, platform/read-cache.ts `unchangedSince`).
  it('playlists rises with each row written to any column of playlists but the like, dislike and favourite counts a rating recounts', async () => {
    const { rows } = (await db.execute(
      sql`select column_name from information_schema.columns
          where table_name = 'playlists' and is_generated = 'NEVER' order by ordinal_position`,
    )) as unknown as { rows: { column_name: string }[] };
    const counts = ['likes', 'dislikes', 'favorites'];
    const columns = rows.map((r) => r.column_name);
    expect(columns).toEqual(expect.arrayContaining(counts));
    const playlist = await createPlaylist(db, { name: 'Written row by row', creatorId: alice.id });
    const rowsWritten = async (write: ReturnType<typeof sql>) => {
      const before = await generationOf('playlists');
      await db.execute(write);
      return (await generationOf('playlists')) - before;
    };
    for (const column of columns) {
      const write = sql`update playlists set ${sql.identifier(column)} = ${sql.identifier(column)}`;
      expect({ column, raises: await rowsWritten(sql`${write} where id = ${playlist.id}`) }).toEqual({
        column,
        raises: counts.includes(column) ? 0 : 1,
      });
      expect(await rowsWritten(sql`${write} where false`)).toBe(0);
    }
    const [{ all }] = await db.select({ all: sql<number>`count(*)::int` }).from(sql`playlists`);
    expect(await rowsWritten(sql`update playlists set description = description`)).toBe(all);
    // Its row, and the statements that cascade to its entries and plan days.
    expect(await rowsWritten(sql`delete from playlists where id = ${playlist.id}`)).toBe(3);
    // Each raise of a row is logged with the row as it was.
    const logged = await db
      .select({ before: sql<{ name: string }>`${keptChanges.before}` })
      .from(keptChanges)
      .where(sql`${keptChanges.rowId} = ${playlist.id}`)
      .orderBy(keptChanges.generation);
    expect(logged.map((change) => change.before?.name ?? null)).toEqual([
      null,
      ...columns.filter((column) => !counts.includes(column)).map(() => 'Written row by row'),
      'Written row by row',
      'Written row by row',
    ]);
  });

  // Nor with the waveform and loudness, which only GET /api/files/waveform reads, never kept (analysing
  // the library in the background would otherwise drop every kept answer once per file).
  it('files rises with a change to any column of files but plays (every finished listen counts one), waveform, loudness, peaks and audio size', async () => {
    const { rows } = (await db.execute(
      sql`select column_name from information_schema.columns
          where table_name = 'files' and is_generated = 'NEVER' order by ordinal_position`,
    )) as unknown as { rows: { column_name: string }[] };
    const columns = rows.map((r) => r.column_name);
    expect(columns).toContain('plays');
    for (const column of columns) {
      const before = await generation();
      await db.execute(
        sql`update files set ${sql.identifier(column)} = ${sql.identifier(column)} where false`,
      );
      expect({ column, rises: (await generation()) > before }).toEqual({
        column,
        rises: !['plays', 'waveform', 'loudness', 'peaks_key', 'audio_size'].includes(column),
      });
    }
    for (const write of [
      sql`insert into files (id) select id from files where false`,
      sql`delete from files where false`,
    ]) {
      const before = await generation();
      await db.execute(write);
      expect(await generation()).toBe(before + 1);
    }
  });

  it('rises with changes to what answers show of users, not with points, streaks, settings or sign-ups', async () => {
    const before = { files: await generationOf('files'), playlists: await generationOf('playlists') };
    await db.execute(
      sql`update users set points = points + 10, streak = streak + 1, hide_locked_files = false`,
    );
    await createSignedInUser(app, { username: 'newcomer' });
    for (const column of ['username', 'image_url']) {
      await db.execute(
        sql`update users set ${sql.identifier(column)} = ${sql.identifier(column)} where false`,
      );
    }
    await db.execute(sql`delete from users where false`);
    // Files show their author's name; playlists their creator's name and picture.
    expect({ files: await generationOf('files'), playlists: await generationOf('playlists') }).toEqual({
      files: before.files + 2,
      playlists: before.playlists + 3,
    });
  });

  it('does not rise when the writing transaction rolls back', async () => {
    const before = await generation();
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update files set name = name`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await generation()).toBe(before);
  });
});

describe('createReadCache', () => {
  const READS = { reads: ['files'] as const };
  const request = (url: string, query: object = {}) =>
    ({ user: null, routeOptions: { url }, query }) as unknown as FastifyRequest;
  // Serialises and sends as JSON; `send` hands back what was sent, parsed.
  const reply = {
    header: () => reply,
    type: () => reply,
    serialize: (answer: unknown) => JSON.stringify(answer),
    send: (body: string) => JSON.parse(body),
  } as unknown as FastifyReply;

  /** A cache on the test database, keeping answers 5 s; `limits` narrows what it keeps. */
  const newCache = (limits: { maxEntries?: number; maxCharacters?: number } = {}) =>
    createReadCache({
      readGenerations: createGenerationsReader(app.ctx.database),
      clock,
      ttlMs: 5_000,
      maxEntries: 10,
      maxCharacters: 1_000_000,
      ...limits,
    });

  it('computes once for concurrent requests of the same answer', async () => {
    const cache = newCache();
    let computed = 0;
    const compute = async () => {
      computed += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { n: computed };
    };
    const answers = await Promise.all(
      [1, 2, 3].map(() => cache.answer(request('/a'), reply, READS, compute)),
    );
    expect(answers).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(computed).toBe(1);
    // Another query is another answer.
    expect(await cache.answer(request('/a', { page: 2 }), reply, READS, compute)).toEqual({ n: 2 });
  });

  it('shares generation reads between requests, never one that started before the request arrived', async () => {
    // A generation that the test raises, read by reads that the test lets finish.
    let generationNow = 1;
    const reads: { release: () => void }[] = [];
    const readGeneration = () =>
      new Promise<number>((resolve) => {
        const startedAt = generationNow;
        reads.push({ release: () => resolve(startedAt) });
      });
    const sharedRead = sharedReads(readGeneration);
    const cache = createReadCache({
      readGenerations: async () => ({
        files: await sharedRead(),
        plays: 0,
        playlists: 0,
        owners: 0,
        sessions: 0,
      }),
      clock,
      ttlMs: 60_000,
      maxEntries: 10,
      maxCharacters: 1_000_000,
    });
    let computed = 0;
    const compute = async () => ++computed;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

    const first = cache.answer(request('/c'), reply, READS, compute);
    reads[0].release();
    expect(await first).toBe(1);

    const earlier = cache.answer(request('/c'), reply, READS, compute); // its read starts at generation 1
    generationNow = 2; // a write commits while that read is under way
    const later = [1, 2, 3].map(() => cache.answer(request('/c'), reply, READS, compute)); // asked after the commit
    expect(reads).toHaveLength(2); // the later ones wait for a read of their own
    reads[1].release();
    expect(await earlier).toBe(1);
    await settle();
    expect(reads).toHaveLength(3); // one read for the three of them
    reads[2].release();
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
  });

  it('does not keep failures', async () => {
    const cache = newCache();
    let calls = 0;
    const compute = async () => {
      calls += 1;
      if (calls === 1) throw new Error('not found');
      return 'found';
    };
    await expect(cache.answer(request('/b'), reply, READS, compute)).rejects.toThrow('not found');
    expect(await cache.answer(request('/b'), reply, READS, compute)).toBe('found');
    expect(calls).toBe(2);
  });

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const cache = newCache({ maxEntries: 2 });
    const computedFor: string[] = [];
    const ask = (url: string) =>
      cache.answer(request(url), reply, READS, async () => {
        computedFor.push(url);
        return url;
      });
    await ask('/one');
    await ask('/two');
    await ask('/one'); // used again: /two is now the least recent
    await ask('/three');
    await ask('/one');
    await ask('/two');
    expect(computedFor).toEqual(['/one', '/two', '/three', '/two']);
  });

  it('keeps the first rows of a list while the library is unchanged; an order by play counts until a play counts', async () => {
    const cache = newCache();
    const BY_PLAYS = { reads: ['files', 'plays'] as const };
    let computed = 0;
    const order = (key: string, reads: typeof READS | typeof BY_PLAYS) =>
      cache.orders.obtain(key, reads, async () => {
        computed += 1;
        return { ids: [3, 1, 2], total: 3, countedAt: 0 };
      });
    expect(await order('by name', READS)).toEqual({ ids: [3, 1, 2], total: 3, countedAt: 0 });
    await order('by plays', BY_PLAYS);
    expect(computed).toBe(2);
    clock.advance(3_600_000);
    await order('by name', READS);
    await order('by plays', BY_PLAYS);
    expect(computed).toBe(2);
    // A counted play: the order by play counts is read again, the other one is still exact.
    await db.execute(sql`update files set plays = plays where false`);
    await order('by plays', BY_PLAYS);
    await order('by name', READS);
    expect(computed).toBe(3);
    // Any change of the library drops both.
    await db.execute(sql`update tags set name = name where false`);
    await order('by name', READS);
    await order('by plays', BY_PLAYS);
    expect(computed).toBe(5);
  });

  it('gives the computation of a changed order the order it replaces and the app clock time', async () => {
    const cache = newCache();
    const given: unknown[] = [];
    const order = () =>
      cache.orders.obtain('given', READS, async (was, now) => {
        given.push([was, now]);
        return { ids: [given.length], total: 1, countedAt: now };
      });
    const start = clock.now().getTime();
    const first = await order();
    clock.advance(2_000);
    await db.execute(sql`update tags set name = name where false`);
    await order();
    expect(given).toEqual([
      [undefined, start],
      [first, start + 2_000],
    ]);
  });

  it('computes an order once for the callers that ask while it is under way, and keeps no failure', async () => {
    // Generations answered at once, so that every caller reaches the order before the test goes on.
    const cache = createReadCache({
      readGenerations: async () => ({ files: 1, plays: 1, playlists: 1, owners: 1, sessions: 1 }),
      clock,
      ttlMs: 5_000,
      maxEntries: 10,
      maxCharacters: 1_000_000,
    });
    const computations: { resolve: (ids: number[]) => void; reject: (error: Error) => void }[] = [];
    const obtain = () =>
      cache.orders.obtain('list', READS, () =>
        new Promise<number[]>((resolve, reject) => computations.push({ resolve, reject })).then((ids) => ({
          ids,
          total: ids.length,
          countedAt: 0,
        })),
      );
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    const failing = [obtain(), obtain()];
    await settle();
    expect(computations).toHaveLength(1);
    computations[0].reject(new Error('statement timeout'));
    for (const asked of failing) await expect(asked).rejects.toThrow('statement timeout');
    // Not kept: the next caller computes it again, and its callers share that.
    const asked = [obtain(), obtain(), obtain()];
    await settle();
    expect(computations).toHaveLength(2);
    computations[1].resolve([7, 8]);
    expect(await Promise.all(asked)).toEqual(Array(3).fill({ ids: [7, 8], total: 2, countedAt: 0 }));
    expect(await obtain()).toEqual({ ids: [7, 8], total: 2, countedAt: 0 });
    expect(computations).toHaveLength(2);
  });

  it('keeps lookups and rows by id while the library is unchanged, however long', async () => {
    const cache = newCache();
    // What a lookup answers, and whether it was computed for that call.
    const lookup = async (key: string) => {
      let computed = false;
      const value = await cache.lookups.obtain(key, READS, async () => {
        computed = true;
        return key === 'may play' ? false : 'other';
      });
      return { value, computed };
    };
    expect(await lookup('may play')).toEqual({ value: false, computed: true });
    // Rows by id, and which were read whole or counted again for each call.
    const read: { rows: number[][]; counts: number[][] } = { rows: [], counts: [] };
    const rows = async (ids: number[]) => {
      const byId = await cache.rows.files.obtain(ids, {
        rows: async (missing) => {
          read.rows.push(missing);
          return missing.map((id) => ({ id, plays: 0 }));
        },
        counts: async (stale) => {
          read.counts.push(stale);
          return stale.map((id) => ({ id, plays: 7 }));
        },
      });
      return [...byId.values()];
    };
    expect(await rows([1, 2])).toEqual([
      { id: 1, plays: 0 },
      { id: 2, plays: 0 },
    ]);
    clock.advance(3_600_000);
    expect(await lookup('may play')).toEqual({ value: false, computed: false });
    expect(await lookup('other')).toEqual({ value: 'other', computed: true });
    expect(await rows([2, 3])).toEqual([
      { id: 2, plays: 0 },
      { id: 3, plays: 0 },
    ]);
    expect(read).toEqual({ rows: [[1, 2], [3]], counts: [] });
    // A counted play leaves the rows kept, their play counts read again, and kept again.
    await db.execute(sql`update files set plays = plays where false`);
    expect(await rows([1, 2])).toEqual([
      { id: 1, plays: 7 },
      { id: 2, plays: 7 },
    ]);
    await rows([1, 2]);
    expect(read).toEqual({ rows: [[1, 2], [3]], counts: [[1, 2]] });
    // Any change of the library drops them.
    await db.execute(sql`update tags set name = name where false`);
    expect(await lookup('may play')).toEqual({ value: false, computed: true });
    await rows([1]);
    expect(read.rows.at(-1)).toEqual([1]);
  });

  it("keeps playlist rows' rating counts as long as an answer is kept, then reads them again", async () => {
    const cache = newCache();
    const counted: number[][] = [];
    const likes = async () => {
      const byId = await cache.rows.playlists.obtain([1], {
        rows: async (ids) => ids.map((id) => ({ id, likes: 0 })),
        counts: async (ids) => {
          counted.push(ids);
          return ids.map((id) => ({ id, likes: counted.length }));
        },
      });
      return byId.get(1)?.likes;
    };
    // To the start of a 5 s window.
    clock.advance(5_000 - (clock.now().getTime() % 5_000));
    expect(await likes()).toBe(0);
    clock.advance(4_999);
    expect(await likes()).toBe(0);
    clock.advance(1);
    expect(await likes()).toBe(1);
    expect(await likes()).toBe(1);
    expect(counted).toEqual([[1]]);
  });

  it('keeps playlist rows through raises that changed other rows, and none read before a raise since caught up with', async () => {
    let generations = { files: 1, plays: 1, playlists: 1, owners: 1, sessions: 1 };
    // The rows each logged raise changed; a raise not in it was not logged.
    const logged = new Map<number, number[]>();
    const cache = createReadCache({
      readGenerations: async () => generations,
      changedRows: async (_part, from, to) => {
        const ids: number[][] = [];
        for (let raise = from + 1; raise <= to; raise++) {
          const changed = logged.get(raise);
          if (!changed) return null;
          ids.push(changed);
        }
        return ids.flat();
      },
      clock,
      ttlMs: 5_000,
      maxEntries: 10,
      maxCharacters: 1_000_000,
    });
    const read: number[][] = [];
    const obtain = (ids: number[], rows = async (missing: number[]) => missing.map((id) => ({ id }))) =>
      cache.rows.playlists.obtain(ids, {
        rows: (missing) => {
          read.push(missing);
          return rows(missing);
        },
        counts: async () => [],
      });
    const raise = (changed?: number[]) => {
      generations = { ...generations, playlists: generations.playlists + 1 };
      if (changed) logged.set(generations.playlists, changed);
    };
    await obtain([1, 2, 3]);
    raise([2]);
    raise([9]);
    await obtain([1, 2, 3]);
    expect(read).toEqual([[1, 2, 3], [2]]);
    // A raise not logged row by row (an entry, a name): every row is read again.
    raise();
    await obtain([1, 2]);
    expect(read.at(-1)).toEqual([1, 2]);
    // A read at an older generation that answers after a later raise was caught up with is given, not kept.
    let answer = () => {};
    const slow = obtain(
      [5],
      (missing) => new Promise((resolve) => (answer = () => resolve(missing.map((id) => ({ id }))))),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    raise([7]);
    await obtain([1]);
    answer();
    expect([...(await slow).keys()]).toEqual([5]);
    await obtain([5]);
    expect(read.slice(-2)).toEqual([[5], [5]]);
  });

  it('keeps orders when keeping answers is off, those by play counts too', async () => {
    const cache = createReadCache({
      readGenerations: createGenerationsReader(app.ctx.database),
      clock,
      ttlMs: 0,
      maxEntries: 10,
      maxCharacters: 1_000_000,
    });
    let computed = 0;
    const compute = async () => ({ ids: [++computed], total: 1, countedAt: 0 });
    for (const reads of [READS, { reads: ['files', 'plays'] as const }]) {
      expect(await cache.orders.obtain(`x ${reads.reads}`, reads, compute)).toEqual({
        ids: [computed],
        total: 1,
        countedAt: 0,
      });
      expect(await cache.orders.obtain(`x ${reads.reads}`, reads, compute)).toEqual({
        ids: [computed],
        total: 1,
        countedAt: 0,
      });
    }
    expect(computed).toBe(2);
  });

  it('looks up orders and lookups within an answer at the generations of that answer, reading none again', async () => {
    const read = createGenerationsReader(app.ctx.database);
    let reads = 0;
    const cache = createReadCache({
      readGenerations: () => {
        reads += 1;
        return read();
      },
      clock,
      ttlMs: 5_000,
      maxEntries: 10,
      maxCharacters: 1_000_000,
    });
    await cache.answer(request('/with-lookups'), reply, READS, async () => {
      await cache.orders.obtain('o', READS, async () => ({ ids: [1], total: 1, countedAt: 0 }));
      await cache.lookups.obtain('l', READS, async () => 1);
      return 'done';
    });
    expect(reads).toBe(1);
    // Outside an answer, a lookup reads the generations: a change since shows.
    const again = async () => ({ ids: [2], total: 1, countedAt: 0 });
    expect(await cache.orders.obtain('o', READS, again)).toEqual({ ids: [1], total: 1, countedAt: 0 });
    expect(reads).toBe(2);
    await db.execute(sql`update tags set name = name where false`);
    expect(await cache.orders.obtain('o', READS, again)).toEqual({ ids: [2], total: 1, countedAt: 0 });
    expect(await cache.lookups.obtain('l', READS, async () => 2)).toBe(2);
  });

  it('keeps bodies within maxCharacters in all, and none longer than that', async () => {
    const cache = newCache({ maxCharacters: 20 });
    const computedFor: string[] = [];
    // The body of `length` characters: a JSON string of length - 2 letters.
    const ask = (url: string, length: number) =>
      cache.answer(request(url), reply, READS, async () => {
        computedFor.push(url);
        return 'x'.repeat(length - 2);
      });
    await ask('/a', 10);
    await ask('/b', 10); // 20 in all: both kept
    await ask('/a', 10); // used again: /b is now the least recent
    await ask('/c', 10); // 30 would be too many: /b goes
    await ask('/a', 10);
    await ask('/c', 10);
    await ask('/b', 10);
    await ask('/large', 21); // longer than the whole budget: not kept, and nothing dropped for it
    await ask('/large', 21);
    await ask('/b', 10);
    expect(computedFor).toEqual(['/a', '/b', '/c', '/b', '/large', '/large']);
  });
});
