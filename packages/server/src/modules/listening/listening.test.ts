import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.ts';
import { listeningSessions, userMemberships, users } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp, freshDatabase, TestClock, testConfig, testDbKind } from '../../test/harness.ts';
import { createTier, grantMembership } from '../../test/library-factories.ts';
import { countsAsPlay, creditedMs, heardMs, pointsWithCarry } from './listening.service.ts';
import {
  type AudioTestFile,
  createAudioFile,
  filePlays,
  listenerState,
  setListenerState,
  storedSessions,
} from './listening.test-data.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const owner = await createUser(db); // id 1, the site owner
// Each test listens as a new user: credited time and streaks do not carry over.
let listener: Awaited<ReturnType<typeof createSignedInUser>>;
const other = await createSignedInUser(app);
await createTier(db, { id: 'gold', rank: 1 });
// Audio is stored at one byte per 100 ms: the 30-minute file has 18,000 bytes.
const longFile = await createAudioFile(app, { authorId: owner.id, duration: 30 * MINUTE });
const otherFile = await createAudioFile(app, { authorId: owner.id, duration: 30 * MINUTE });
const shortFile = await createAudioFile(app, { authorId: owner.id, duration: 150_000 });
const tinyFile = await createAudioFile(app, { authorId: owner.id, duration: 40_000 });
const privateFile = await createAudioFile(app, {
  authorId: owner.id,
  duration: 10 * MINUTE,
  isPublic: false,
});
const lockedFile = await createAudioFile(app, {
  authorId: owner.id,
  duration: 30 * MINUTE,
  tierIds: ['gold'],
});

function post(payload: unknown, token?: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/session',
    payload: payload as object,
    headers: token ? authHeader(token) : {},
    remoteAddress,
  });
}

async function start(token?: string, timezone = 'UTC'): Promise<string> {
  const res = await post({ timezone }, token);
  expect(res.statusCode).toBe(200);
  return res.json().token;
}

function end(sessionToken: string, fileId: number, token?: string, extra: object = {}) {
  return post({ sessionToken, fileId, timezone: 'UTC', ...extra }, token);
}

/** The player's media request under a listening session. */
function serve(
  session: string,
  file: AudioTestFile,
  token?: string,
  range?: string,
  method: 'GET' | 'HEAD' = 'GET',
) {
  return app.inject({
    method,
    url: file.audioUrl(session),
    headers: { ...(token ? authHeader(token) : {}), ...(range ? { range } : {}) },
  });
}

/** Fetches the whole audio under the session, as a player that plays it through. */
async function fetchAll(session: string, file: AudioTestFile, token?: string) {
  const res = await serve(session, file, token);
  expect(res.statusCode).toBe(200);
  expect(res.rawPayload.length).toBe(file.size);
}

async function sessionRow(token: string) {
  const hash = createHash('sha256').update(token).digest('hex');
  return (await storedSessions(db)).find((s) => s.tokenHash === hash)!;
}

/** The session's row once every served range still pending in the app is stored. */
async function storedSession(token: string) {
  await app.services.listening.flushServed();
  return sessionRow(token);
}

beforeEach(async () => {
  clock.set('2026-06-01T12:00:00Z');
  listener = await createSignedInUser(app);
});

describe('creditedMs and pointsWithCarry', () => {
  const startedAt = new Date('2026-06-01T12:00:00Z');
  const at = (ms: number) => new Date(startedAt.getTime() + ms);
  const plenty = { fileDurationMs: 1e9, deliveredMs: 1e9 };

  it('credits the wall-clock time of the session', () => {
    expect(creditedMs({ startedAt, endedAt: at(59_999), creditedUntil: null, ...plenty })).toBe(59_999);
    expect(creditedMs({ startedAt, endedAt: at(3 * MINUTE + 59_000), creditedUntil: null, ...plenty })).toBe(
      239_000,
    );
  });

  it('is capped by the file duration, the audio served and the time actually played', () => {
    const long = { startedAt, endedAt: at(60 * MINUTE), creditedUntil: null };
    expect(creditedMs({ ...long, ...plenty, fileDurationMs: 150_000 })).toBe(150_000);
    expect(creditedMs({ ...long, ...plenty, deliveredMs: 7 * MINUTE + 59_000 })).toBe(479_000);
    expect(creditedMs({ ...long, ...plenty, deliveredMs: 0 })).toBe(0);
    expect(creditedMs({ ...long, ...plenty, listenedMs: 5 * MINUTE })).toBe(5 * MINUTE);
  });

  it('only counts time after the last credited session ended', () => {
    const session = { startedAt, endedAt: at(10 * MINUTE), ...plenty };
    expect(creditedMs({ ...session, creditedUntil: at(7 * MINUTE) })).toBe(3 * MINUTE);
    expect(creditedMs({ ...session, creditedUntil: at(-5 * MINUTE) })).toBe(10 * MINUTE);
    expect(creditedMs({ ...session, creditedUntil: at(11 * MINUTE) })).toBe(0);
  });

  it('turns whole minutes into points and carries the rest', () => {
    expect(pointsWithCarry(0, 59_999)).toEqual({ points: 0, carryMs: 59_999 });
    expect(pointsWithCarry(48_000, 12_000)).toEqual({ points: 1, carryMs: 0 });
    expect(pointsWithCarry(30_000, 3 * MINUTE + 45_000)).toEqual({ points: 4, carryMs: 15_000 });
  });
});

describe('heardMs and countsAsPlay', () => {
  it('takes the least of wall clock, duration, audio served and time played', () => {
    const startedAt = new Date('2026-06-01T12:00:00Z');
    const endedAt = new Date('2026-06-01T12:10:00Z');
    expect(heardMs({ startedAt, endedAt, fileDurationMs: 1e9, deliveredMs: 1e9 })).toBe(10 * MINUTE);
    expect(heardMs({ startedAt, endedAt, fileDurationMs: 1e9, deliveredMs: 42 })).toBe(42);
    expect(heardMs({ startedAt, endedAt, fileDurationMs: 40, deliveredMs: 1e9 })).toBe(40);
    expect(heardMs({ startedAt, endedAt, fileDurationMs: 1e9, deliveredMs: 1e9, listenedMs: 7 })).toBe(7);
  });

  it('counts a play after 30 s, or half of a track shorter than a minute', () => {
    expect(countsAsPlay(29_999, 30 * MINUTE)).toBe(false);
    expect(countsAsPlay(30_000, 30 * MINUTE)).toBe(true);
    expect(countsAsPlay(19_999, 40_000)).toBe(false);
    expect(countsAsPlay(20_000, 40_000)).toBe(true);
    expect(countsAsPlay(0, 0)).toBe(false);
  });
});

describe('POST /api/session (start)', () => {
  it('answers a token and stores only its hash, with the user and the start time', async () => {
    const token = await start(listener.token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = (await storedSessions(db)).at(-1)!;
    expect(row).toMatchObject({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: listener.id,
      fileId: null,
      endedAt: null,
      points: 0,
      servedRanges: [],
    });
    expect(row.startedAt.toISOString()).toBe('2026-06-01T12:00:00.000Z');
  });

  it('gives anonymous listeners a session too', async () => {
    const token = await start();
    expect(typeof token).toBe('string');
    expect((await storedSessions(db)).at(-1)).toMatchObject({ userId: null });
  });

  it('accepts a start without a time zone', async () => {
    const res = await post({}, listener.token);
    expect(res.statusCode).toBe(200);
  });

  it('rejects an unknown time zone, naming the field', async () => {
    const res = await post({ timezone: 'Mars/Olympus' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'timezone' });
  });

  it('stores the time zone sent on the account, changing it at most once a day', async () => {
    const zone = async () =>
      (await db.select({ timezone: users.timezone }).from(users).where(eq(users.id, listener.id)))[0]
        .timezone;
    await start(listener.token, 'Europe/Berlin');
    expect(await zone()).toBe('Europe/Berlin');
    clock.advance(MINUTE);
    await start(listener.token, 'Asia/Tokyo');
    expect(await zone()).toBe('Europe/Berlin');
    clock.advance(24 * HOUR - MINUTE);
    await start(listener.token, 'Asia/Tokyo');
    expect(await zone()).toBe('Asia/Tokyo');
  });
});

describe('GET /media/audio with a listening session', () => {
  it('merges the bytes of several requests in memory and stores them after about a second', async () => {
    const token = await start(listener.token);
    expect((await serve(token, longFile, listener.token, 'bytes=0-999')).statusCode).toBe(206);
    expect((await serve(token, longFile, listener.token, 'bytes=500-1499')).statusCode).toBe(206);
    expect((await serve(token, longFile, listener.token, 'bytes=0-999')).statusCode).toBe(206);
    expect((await serve(token, longFile, listener.token, 'bytes=5000-5099')).statusCode).toBe(206);
    // No flush asked for: the buffer's timer stores them.
    await vi.waitFor(
      async () =>
        expect(await sessionRow(token)).toMatchObject({
          fileId: longFile.id,
          audioSize: 18_000,
          servedRanges: [
            [0, 1499],
            [5000, 5099],
          ],
        }),
      { timeout: 5000, interval: 50 },
    );
  });

  it("does not record another file's audio, HEAD requests, another user's requests or an ended session", async () => {
    const token = await start(listener.token);
    await serve(token, longFile, listener.token, 'bytes=0-99');
    expect((await serve(token, otherFile, listener.token)).statusCode).toBe(200);
    expect((await serve(token, longFile, listener.token, 'bytes=100-199', 'HEAD')).statusCode).toBe(206);
    expect((await serve(token, longFile, other.token, 'bytes=200-299')).statusCode).toBe(206);
    expect((await serve(token, longFile, undefined, 'bytes=300-399')).statusCode).toBe(206);
    expect(await storedSession(token)).toMatchObject({ fileId: longFile.id, servedRanges: [[0, 99]] });
    await end(token, longFile.id, listener.token);
    await serve(token, longFile, listener.token, 'bytes=400-499');
    expect((await storedSession(token)).servedRanges).toEqual([[0, 99]]);
  });

  it('records nothing for another user, nor for another file once bound, when they are pending together', async () => {
    const token = await start(listener.token);
    // Another user's request comes first and does not bind the session to its file.
    await serve(token, otherFile, other.token, 'bytes=0-99');
    await serve(token, longFile, listener.token, 'bytes=100-199');
    await serve(token, otherFile, listener.token, 'bytes=200-299');
    expect(await storedSession(token)).toMatchObject({
      fileId: longFile.id,
      audioSize: 18_000,
      servedRanges: [[100, 199]],
    });

    const theirs = await start(listener.token);
    await serve(theirs, longFile, other.token, 'bytes=0-999');
    await serve(theirs, longFile, undefined, 'bytes=0-999');
    expect(await storedSession(theirs)).toMatchObject({ fileId: null, audioSize: null, servedRanges: [] });
  });

  it('merges what two server processes served under one session, each storing against the row it last saw', async () => {
    // A second server process on the same database and media folder.
    const database = { db, kind: testDbKind, close: async () => undefined };
    const second = await buildApp(app.ctx.config, { database, clock, logger: false });
    try {
      const token = await start(listener.token);
      const served = (on: typeof app, range: string) =>
        on.inject({
          method: 'GET',
          url: longFile.audioUrl(token),
          headers: { ...authHeader(listener.token), range },
        });
      const flush = (on: typeof app) => on.services.listening.flushServed();

      expect((await served(app, 'bytes=0-99')).statusCode).toBe(206);
      await flush(app);
      expect((await served(second, 'bytes=200-299')).statusCode).toBe(206);
      await flush(second);
      // The first process last saw [0, 99] only: its update misses, and it merges into the stored row.
      await served(app, 'bytes=100-199');
      await flush(app);
      expect((await sessionRow(token)).servedRanges).toEqual([[0, 299]]);

      // Bytes already stored, as this process last saw them, cost no write: a row changed behind its
      // back (here by hand) stays as it is.
      await db
        .update(listeningSessions)
        .set({ servedRanges: [[0, 9]] })
        .where(eq(listeningSessions.id, (await sessionRow(token)).id));
      await served(app, 'bytes=0-99');
      await flush(app);
      expect((await sessionRow(token)).servedRanges).toEqual([[0, 9]]);

      // An ended session records nothing, whatever a process remembers of it.
      await served(app, 'bytes=1000-1099');
      await end(token, longFile.id, listener.token);
      await served(app, 'bytes=2000-2099');
      await flush(app);
      expect((await sessionRow(token)).servedRanges).toEqual([
        [0, 9],
        [1000, 1099],
      ]);
    } finally {
      await second.close();
    }
  });

  it('stores the sessions of one flush together, and merges the one another process changed', async () => {
    const tokens = [await start(listener.token), await start(listener.token), await start(listener.token)];
    for (const token of tokens) await serve(token, longFile, listener.token, 'bytes=0-99');
    await app.services.listening.flushServed();
    // Behind this process's back, as another process storing more of it would.
    const changed = await sessionRow(tokens[1]);
    await db
      .update(listeningSessions)
      .set({ servedRanges: [[0, 299]] })
      .where(eq(listeningSessions.id, changed.id));

    for (const token of tokens) await serve(token, longFile, listener.token, 'bytes=1000-1099');
    const before = app.ctx.database.writes?.count;
    await app.services.listening.flushServed();
    const stored = await Promise.all(tokens.map(async (token) => (await sessionRow(token)).servedRanges));
    expect(stored).toEqual([
      [
        [0, 99],
        [1000, 1099],
      ],
      [
        [0, 299],
        [1000, 1099],
      ],
      [
        [0, 99],
        [1000, 1099],
      ],
    ]);
    // On the embedded database: one statement for the three, then the missed one's transaction.
    if (before !== undefined)
      expect((app.ctx.database.writes?.count ?? 0) - before).toBeLessThanOrEqual(1 + 3);
  });

  it('stores the bytes still pending before an end counts them', async () => {
    const token = await start(listener.token);
    // 6,000 bytes of 18,000 = 10 of 30 minutes, ended at once (no timer has stored them yet).
    expect((await serve(token, longFile, listener.token, 'bytes=0-5999')).statusCode).toBe(206);
    clock.advance(25 * MINUTE);
    expect((await end(token, longFile.id, listener.token)).json()).toMatchObject({ points: 10 });
    expect(await sessionRow(token)).toMatchObject({
      fileId: longFile.id,
      servedRanges: [[0, 5999]],
      points: 10,
      creditedMs: 10 * MINUTE,
    });
    expect(await listenerState(db, listener.id)).toMatchObject({ points: 10 });
  });

  it('rejects a malformed session token, naming the field', async () => {
    const res = await app.inject({ method: 'GET', url: `${longFile.audioUrl()}&session=${'x'.repeat(201)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'session' });
  });
});

describe('POST /api/session (end)', () => {
  it('earns nothing and counts no play when no audio was fetched under the session', async () => {
    const token = await start(listener.token);
    const plays = await filePlays(db, longFile.id);
    clock.advance(10 * MINUTE);
    const res = await end(token, longFile.id, listener.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token, points: 0, totalPoints: 0, streak: 0 });
    expect(await filePlays(db, longFile.id)).toBe(plays);
    expect(await listenerState(db, listener.id)).toEqual({ points: 0, streak: 0, lastListenDay: null });
  });

  it('awards one point per whole minute, counts a play and starts the streak', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    const playsBefore = await filePlays(db, longFile.id);
    clock.advance(5 * MINUTE + 30_000);
    const res = await end(token, longFile.id, listener.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token, points: 5, totalPoints: 5, streak: 1 });
    expect(await filePlays(db, longFile.id)).toBe(playsBefore + 1);
    expect(await listenerState(db, listener.id)).toEqual({
      points: 5,
      streak: 1,
      lastListenDay: '2026-06-01',
    });
    expect(await sessionRow(token)).toMatchObject({
      userId: listener.id,
      fileId: longFile.id,
      points: 5,
      playListener: `user:${listener.id}`,
    });
  });

  it('is capped by the seconds of audio served under the session', async () => {
    const token = await start(listener.token);
    // 6,000 bytes of 18,000 = 10 of 30 minutes.
    expect((await serve(token, longFile, listener.token, 'bytes=0-5999')).statusCode).toBe(206);
    clock.advance(25 * MINUTE);
    expect((await end(token, longFile.id, listener.token)).json()).toMatchObject({
      points: 10,
      totalPoints: 10,
    });
  });

  it('counts repeated requests for the same bytes once', async () => {
    const token = await start(listener.token);
    for (let i = 0; i < 4; i++) await serve(token, longFile, listener.token, 'bytes=0-2999');
    await serve(token, longFile, listener.token, 'bytes=1000-2999');
    clock.advance(20 * MINUTE);
    expect((await end(token, longFile.id, listener.token)).json()).toMatchObject({ points: 5 });
  });

  it('earns nothing when the session is ended with another file than the one whose audio it was served', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    const plays = [await filePlays(db, longFile.id), await filePlays(db, otherFile.id)];
    clock.advance(10 * MINUTE);
    const res = await end(token, otherFile.id, listener.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ points: 0, totalPoints: 0 });
    expect([await filePlays(db, longFile.id), await filePlays(db, otherFile.id)]).toEqual(plays);
  });

  it('earns nothing for a locked file: no audio is served, and access lapsed before the end counts nothing', async () => {
    const token = await start(listener.token);
    expect((await serve(token, lockedFile, listener.token)).statusCode).toBe(403);
    clock.advance(10 * MINUTE);
    expect((await end(token, lockedFile.id, listener.token)).json()).toMatchObject({ points: 0 });

    await grantMembership(db, listener.id, 'gold');
    const second = await start(listener.token);
    await fetchAll(second, lockedFile, listener.token);
    await db.update(userMemberships).set({ active: false }).where(eq(userMemberships.userId, listener.id));
    const plays = await filePlays(db, lockedFile.id);
    clock.advance(10 * MINUTE);
    expect((await end(second, lockedFile.id, listener.token)).json()).toMatchObject({
      points: 0,
      totalPoints: 0,
    });
    expect(await filePlays(db, lockedFile.id)).toBe(plays);
  });

  it('cannot be inflated by ending early: points follow the wall clock', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(59_000);
    expect((await end(token, longFile.id, listener.token)).json()).toMatchObject({
      points: 0,
      totalPoints: 0,
    });
  });

  it('awards once per session: a second end is 409 and changes nothing', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(3 * MINUTE);
    expect((await end(token, longFile.id, listener.token)).json().points).toBe(3);
    const plays = await filePlays(db, longFile.id);
    clock.advance(10 * MINUTE);
    const again = await end(token, longFile.id, listener.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This listening session has already ended.' });
    expect(await filePlays(db, longFile.id)).toBe(plays);
    expect((await listenerState(db, listener.id)).points).toBe(3);
  });

  it('awards once when two ends race', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(4 * MINUTE);
    const results = await Promise.all([
      end(token, longFile.id, listener.token),
      end(token, longFile.id, listener.token),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await listenerState(db, listener.id)).points).toBe(4);
  });

  it('is capped by the file duration', async () => {
    const token = await start(listener.token);
    await fetchAll(token, shortFile, listener.token);
    clock.advance(60 * MINUTE);
    expect((await end(token, shortFile.id, listener.token)).json()).toMatchObject({
      points: 2,
      totalPoints: 2,
    });
  });

  it('is capped by the time the player says it played', async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(20 * MINUTE);
    const res = await end(token, longFile.id, listener.token, { listenedMs: 4 * MINUTE + 59_999 });
    expect(res.json()).toMatchObject({ points: 4 });
  });

  it('does not count the same minutes twice for overlapping sessions', async () => {
    const first = await start(listener.token);
    const second = await start(listener.token);
    await fetchAll(first, longFile, listener.token);
    await fetchAll(second, otherFile, listener.token);
    clock.advance(10 * MINUTE);
    expect((await end(first, longFile.id, listener.token)).json().points).toBe(10);
    expect((await end(second, otherFile.id, listener.token)).json().points).toBe(0);
    clock.advance(2 * MINUTE);
    const third = await start(listener.token);
    await fetchAll(third, longFile, listener.token);
    clock.advance(3 * MINUTE);
    expect((await end(third, longFile.id, listener.token)).json()).toMatchObject({
      points: 3,
      totalPoints: 13,
    });
  });

  it('gives anonymous listeners no points but counts the play', async () => {
    const token = await start();
    await fetchAll(token, longFile);
    const plays = await filePlays(db, longFile.id);
    clock.advance(10 * MINUTE);
    const res = await end(token, longFile.id);
    expect(res.json()).toEqual({ token, points: 0, totalPoints: 0, streak: 0 });
    expect(await filePlays(db, longFile.id)).toBe(plays + 1);
  });

  it('gives no points for a session started anonymously and ended signed in', async () => {
    const token = await start();
    await fetchAll(token, longFile, listener.token);
    clock.advance(10 * MINUTE);
    expect((await end(token, longFile.id, listener.token)).json()).toMatchObject({ points: 0 });
    expect((await listenerState(db, listener.id)).points).toBe(0);
  });

  it("treats another user's session as unknown (404), and a signed-out end of a user's session too", async () => {
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(5 * MINUTE);
    const res = await end(token, longFile.id, other.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Listening session not found.' });
    expect((await end(token, longFile.id)).statusCode).toBe(404);
    expect((await end(token, longFile.id, listener.token)).json().points).toBe(5);
  });

  it('answers 404 for an unknown token and for a file the listener cannot see, leaving the session open', async () => {
    expect((await end('no-such-token', longFile.id, listener.token)).statusCode).toBe(404);
    const token = await start(listener.token);
    await fetchAll(token, longFile, listener.token);
    clock.advance(2 * MINUTE);
    const hidden = await end(token, privateFile.id, listener.token);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'File not found.' });
    expect((await end(token, 999_999, listener.token)).statusCode).toBe(404);
    expect((await end(token, longFile.id, listener.token)).json().points).toBe(2);
  });

  it('requires fileId when ending, and validates the fields', async () => {
    const token = await start(listener.token);
    const missing = await post({ sessionToken: token, timezone: 'UTC' }, listener.token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'fileId' });
    const badFile = await post({ sessionToken: token, fileId: 'x' }, listener.token);
    expect(badFile.statusCode).toBe(400);
    expect(badFile.json()).toMatchObject({ field: 'fileId' });
    const badListened = await end(token, longFile.id, listener.token, { listenedMs: -1 });
    expect(badListened.json()).toMatchObject({ field: 'listenedMs' });
    expect((await sessionRow(token)).endedAt).toBeNull();
  });
});

describe('play count', () => {
  async function play(file: AudioTestFile, seconds: number, token?: string, remoteAddress?: string) {
    const session = await start(token);
    await fetchAll(session, file, token);
    clock.advance(seconds * 1000);
    const res = await post({ sessionToken: session, fileId: file.id }, token, remoteAddress);
    expect(res.statusCode).toBe(200);
    clock.advance(1000);
  }

  it('counts after 30 s of a long track, or half of a short one', async () => {
    const plays = await filePlays(db, longFile.id);
    await play(longFile, 29, listener.token);
    expect(await filePlays(db, longFile.id)).toBe(plays);
    await play(longFile, 30, listener.token);
    expect(await filePlays(db, longFile.id)).toBe(plays + 1);

    const tinyPlays = await filePlays(db, tinyFile.id);
    await play(tinyFile, 19, listener.token);
    expect(await filePlays(db, tinyFile.id)).toBe(tinyPlays);
    await play(tinyFile, 20, listener.token);
    expect(await filePlays(db, tinyFile.id)).toBe(tinyPlays + 1);
  });

  it('counts once per listener and file an hour, anonymous listeners by address', async () => {
    const plays = await filePlays(db, shortFile.id);
    await play(shortFile, 60, listener.token);
    await play(shortFile, 60, listener.token);
    expect(await filePlays(db, shortFile.id)).toBe(plays + 1);
    await play(shortFile, 60, other.token);
    expect(await filePlays(db, shortFile.id)).toBe(plays + 2);
    clock.advance(HOUR);
    await play(shortFile, 60, listener.token);
    expect(await filePlays(db, shortFile.id)).toBe(plays + 3);

    await play(shortFile, 60, undefined, '10.0.0.1');
    await play(shortFile, 60, undefined, '10.0.0.1');
    expect(await filePlays(db, shortFile.id)).toBe(plays + 4);
    await play(shortFile, 60, undefined, '10.0.0.2');
    expect(await filePlays(db, shortFile.id)).toBe(plays + 5);
  });
});

describe('daily streak', () => {
  async function listen(at: string, timezone: string, minutes = 2) {
    clock.set(at);
    const token = await start(listener.token, timezone);
    await fetchAll(token, longFile, listener.token);
    clock.advance(minutes * MINUTE);
    const res = await post({ sessionToken: token, fileId: longFile.id, timezone }, listener.token);
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  it('grows on consecutive days, stays the same day and restarts after a gap', async () => {
    expect((await listen('2026-06-01T10:00:00Z', 'UTC')).streak).toBe(1);
    expect((await listen('2026-06-01T20:00:00Z', 'UTC')).streak).toBe(1);
    expect((await listen('2026-06-02T08:00:00Z', 'UTC')).streak).toBe(2);
    expect((await listen('2026-06-03T23:50:00Z', 'UTC')).streak).toBe(3);
    expect((await listen('2026-06-06T09:00:00Z', 'UTC')).streak).toBe(1);
    expect(await listenerState(db, listener.id)).toMatchObject({ streak: 1, lastListenDay: '2026-06-06' });
  });

  it("counts days in the listener's time zone, across midnight", async () => {
    // 23:00 in Berlin on June 1 is 21:00 UTC; 00:30 in Berlin on June 2 is 22:30 UTC the same UTC day.
    expect((await listen('2026-06-01T21:00:00Z', 'Europe/Berlin')).streak).toBe(1);
    expect((await listen('2026-06-01T22:30:00Z', 'Europe/Berlin')).streak).toBe(2);
    expect((await listenerState(db, listener.id)).lastListenDay).toBe('2026-06-02');
  });

  it('keeps the streak when the same instants fall on one day in the time zone', async () => {
    expect((await listen('2026-06-01T21:00:00Z', 'America/Los_Angeles')).streak).toBe(1);
    expect((await listen('2026-06-01T22:30:00Z', 'America/Los_Angeles')).streak).toBe(1);
  });

  it('counts the day the session ended on, and a session ending past midnight extends the streak', async () => {
    await listen('2026-06-01T23:00:00Z', 'UTC', 2);
    expect((await listen('2026-06-01T23:59:00Z', 'UTC', 2)).streak).toBe(2);
    expect((await listenerState(db, listener.id)).lastListenDay).toBe('2026-06-02');
  });

  it('cannot be stretched by sending other time zones: three zones a few minutes apart make one day', async () => {
    // At 11:00 UTC it is still May 31 at UTC-12, June 1 in UTC and already June 2 at UTC+14.
    expect((await listen('2026-06-01T11:00:00Z', 'Etc/GMT+12')).streak).toBe(1);
    expect((await listen('2026-06-01T11:03:00Z', 'UTC')).streak).toBe(1);
    expect((await listen('2026-06-01T11:06:00Z', 'Pacific/Kiritimati')).streak).toBe(1);
    expect(await listenerState(db, listener.id)).toMatchObject({ streak: 1, lastListenDay: '2026-05-31' });
  });

  it("uses the account's stored time zone, not the one sent with the end", async () => {
    await db.update(users).set({ timezone: 'Asia/Tokyo' }).where(eq(users.id, listener.id));
    clock.set('2026-06-01T20:00:00Z'); // June 2, 05:00 in Tokyo
    const token = (await post({}, listener.token)).json().token;
    await fetchAll(token, longFile, listener.token);
    clock.advance(MINUTE);
    const res = await post({ sessionToken: token, fileId: longFile.id, timezone: 'UTC' }, listener.token);
    expect(res.json()).toMatchObject({ points: 1, streak: 1 });
    expect((await listenerState(db, listener.id)).lastListenDay).toBe('2026-06-02');
  });

  it('does not count a day without a whole minute of listening', async () => {
    await setListenerState(db, listener.id, { streak: 4, lastListenDay: '2026-05-31' });
    expect(await listen('2026-06-01T10:00:00Z', 'UTC', 0.5)).toMatchObject({ points: 0, streak: 4 });
    expect(await listenerState(db, listener.id)).toMatchObject({ streak: 4, lastListenDay: '2026-05-31' });
    expect((await listen('2026-06-01T11:00:00Z', 'UTC', 1)).streak).toBe(5);
  });
});

describe('OpenAPI', () => {
  it('documents both shapes of POST /api/session and what anonymous listeners get', async () => {
    const docs = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const call = docs.paths['/api/session'].post;
    expect(Object.keys(call.requestBody.content['application/json'].schema.properties)).toEqual([
      'timezone',
      'sessionToken',
      'fileId',
      'listenedMs',
      'source',
      'toyConnected',
    ]);
    expect(call.description).toContain(
      'A session started anonymously earns 0 points and only counts the play.',
    );
    expect(call.description).toContain('a second end is 409');
    expect(call.description).toContain('audio the media route served under the session');
  });
});

describe('points across short tracks', () => {
  it('adds the seconds of five 12-second tracks into a point, with the streak on the day it is earned', async () => {
    const tracks = await Promise.all(
      Array.from({ length: 5 }, () => createAudioFile(app, { authorId: owner.id, duration: 12_000 })),
    );
    const answers: { points: number; totalPoints: number; streak: number }[] = [];
    for (const track of tracks) {
      const session = await start(listener.token);
      await fetchAll(session, track, listener.token);
      clock.advance(12_000);
      const res = await end(session, track.id, listener.token);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(res.json());
      clock.advance(1000);
    }
    expect(answers.map((a) => [a.points, a.totalPoints, a.streak])).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
      [1, 1, 1],
    ]);
    const [stored] = await db.select().from(users).where(eq(users.id, listener.id));
    expect(stored).toMatchObject({ points: 1, listeningCarryMs: 0, streak: 1 });
  });

  it('never carries what a session did not hear: ending without the audio credits nothing', async () => {
    const track = await createAudioFile(app, { authorId: owner.id, duration: 12_000 });
    const session = await start(listener.token);
    clock.advance(12_000);
    expect((await end(session, track.id, listener.token)).json().points).toBe(0);
    const [stored] = await db.select().from(users).where(eq(users.id, listener.id));
    expect(stored.listeningCarryMs).toBe(0);
  });
});

describe('closing the app', () => {
  it('stores the served audio still pending', async () => {
    const config = testConfig();
    const database = await freshDatabase();
    try {
      const closing = await buildApp(config, { database, clock: new TestClock(), logger: false });
      const author = await createUser(database.db);
      const user = await createSignedInUser(closing);
      const file = await createAudioFile(closing, { authorId: author.id, duration: 30 * MINUTE });
      const started = await closing.inject({
        method: 'POST',
        url: '/api/session',
        payload: {},
        headers: authHeader(user.token),
      });
      const token: string = started.json().token;
      const res = await closing.inject({
        method: 'GET',
        url: file.audioUrl(token),
        headers: { ...authHeader(user.token), range: 'bytes=0-999' },
      });
      expect(res.statusCode).toBe(206);
      // Closed at once, well before the buffer's timer would store the bytes.
      await closing.close();
      const hash = createHash('sha256').update(token).digest('hex');
      const [row] = await database.db
        .select()
        .from(listeningSessions)
        .where(eq(listeningSessions.tokenHash, hash));
      expect(row).toMatchObject({
        userId: user.id,
        fileId: file.id,
        audioSize: 18_000,
        servedRanges: [[0, 999]],
      });
    } finally {
      await database.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
