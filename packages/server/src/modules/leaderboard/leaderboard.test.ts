import { describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { setListenerState } from '../listening/listening.test-data.ts';
import { rankPage } from './leaderboard.service.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

const owner = await createUser(db, { username: 'owner' });
const alice = await createUser(db, { username: 'alice' });
const bob = await createUser(db, { username: 'Bob' });
const carol = await createSignedInUser(app, { username: 'carol' });
const dave = await createUser(db, { username: 'dave' });
const newcomer = await createSignedInUser(app, { username: 'newcomer' });

function get(url: string, token?: string) {
  return app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
}

describe('rankPage', () => {
  it('ranks ties together and skips after them', () => {
    const rows = [
      { username: 'a', points: 9 },
      { username: 'b', points: 7 },
      { username: 'c', points: 7 },
      { username: 'd', points: 5 },
    ];
    expect(rankPage(rows, 0, 0).map((r) => r.rank)).toEqual([1, 2, 2, 4]);
  });

  it('continues a tie that began on an earlier page', () => {
    const rows = [
      { username: 'c', points: 7 },
      { username: 'd', points: 7 },
      { username: 'e', points: 5 },
      { username: 'f', points: 5 },
      { username: 'g', points: 1 },
    ];
    // Ten users have more than 7 points; the page starts at item 12.
    expect(rankPage(rows, 12, 10).map((r) => r.rank)).toEqual([11, 11, 15, 15, 17]);
  });

  it('answers [] for an empty page', () => {
    expect(rankPage([], 50, 0)).toEqual([]);
  });
});

describe('GET /api/leaderboard', () => {
  it('is empty before anyone has points', async () => {
    const res = await get('/api/leaderboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ leaderboard: [], totalItems: 0 });
  });

  it('ranks users with points, most first, ties by username sharing a rank', async () => {
    await setListenerState(db, alice.id, { points: 100 });
    await setListenerState(db, carol.id, { points: 80 });
    await setListenerState(db, bob.id, { points: 80 });
    await setListenerState(db, dave.id, { points: 50 });
    await setListenerState(db, owner.id, { points: 1 });
    const res = await get('/api/leaderboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      leaderboard: [
        { rank: 1, username: 'alice', points: 100 },
        { rank: 2, username: 'Bob', points: 80 },
        { rank: 2, username: 'carol', points: 80 },
        { rank: 4, username: 'dave', points: 50 },
        { rank: 5, username: 'owner', points: 1 },
      ],
      totalItems: 5,
    });
  });

  it('pages with pageSize and pageOffset, keeping ranks across pages', async () => {
    const first = await get('/api/leaderboard?pageSize=2&pageOffset=0');
    expect(first.json()).toEqual({
      leaderboard: [
        { rank: 1, username: 'alice', points: 100 },
        { rank: 2, username: 'Bob', points: 80 },
      ],
      totalItems: 5,
    });
    const second = await get('/api/leaderboard?pageSize=2&pageOffset=2');
    expect(second.json().leaderboard).toEqual([
      { rank: 2, username: 'carol', points: 80 },
      { rank: 4, username: 'dave', points: 50 },
    ]);
    const last = await get('/api/leaderboard?pageSize=2&pageOffset=4');
    expect(last.json().leaderboard).toEqual([{ rank: 5, username: 'owner', points: 1 }]);
    const beyond = await get('/api/leaderboard?pageSize=2&pageOffset=10');
    expect(beyond.json()).toEqual({ leaderboard: [], totalItems: 5 });
  });

  it('defaults to 50 per page', async () => {
    const res = await get('/api/leaderboard');
    expect(res.json().leaderboard).toHaveLength(5);
  });

  it('rejects bad paging input, naming the field', async () => {
    for (const [query, field] of [
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      ['pageOffset=-1', 'pageOffset'],
      ['pageOffset=x', 'pageOffset'],
    ]) {
      const res = await get(`/api/leaderboard?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field });
    }
  });

  it('is open to anonymous visitors and the same for signed-in ones', async () => {
    const anonymous = await get('/api/leaderboard');
    const signedIn = await get('/api/leaderboard', carol.token);
    expect(signedIn.json()).toEqual(anonymous.json());
  });
});

describe('GET /api/leaderboard/user', () => {
  it("answers the signed-in user's rank by default", async () => {
    const res = await get('/api/leaderboard/user', carol.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ranking: { rank: 2, username: 'carol', points: 80 } });
  });

  it('answers a named user, matching the username without regard to case', async () => {
    expect((await get('/api/leaderboard/user?user=dave')).json()).toEqual({
      ranking: { rank: 4, username: 'dave', points: 50 },
    });
    expect((await get('/api/leaderboard/user?user=BOB', carol.token)).json()).toEqual({
      ranking: { rank: 2, username: 'Bob', points: 80 },
    });
  });

  it('ranks a user without points after every ranked user', async () => {
    expect((await get('/api/leaderboard/user', newcomer.token)).json()).toEqual({
      ranking: { rank: 6, username: 'newcomer', points: 0 },
    });
  });

  it('is 401 without a user when signed out', async () => {
    const res = await get('/api/leaderboard/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'You need to be logged in to do that.' });
  });

  it('is 404 for an unknown user', async () => {
    const res = await get('/api/leaderboard/user?user=nobody', carol.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'User not found.' });
  });

  it('rejects an empty user parameter, naming it', async () => {
    const res = await get('/api/leaderboard/user?user=', carol.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'user' });
  });

  it('follows points as they change', async () => {
    await setListenerState(db, dave.id, { points: 81 });
    expect((await get('/api/leaderboard/user?user=dave')).json().ranking.rank).toBe(2);
    expect((await get('/api/leaderboard/user', carol.token)).json().ranking.rank).toBe(3);
  });
});
