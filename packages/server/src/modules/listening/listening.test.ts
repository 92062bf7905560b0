import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { listeningPoints } from './listening.service.ts';
import {
  filePlays,
  insertFile,
  listenerState,
  setListenerState,
  storedSessions,
} from './listening.test-data.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const MINUTE = 60_000;

const owner = await createUser(db); // id 1, the site owner
// Each test listens as a new user: credited time and streaks do not carry over.
let listener: Awaited<ReturnType<typeof createSignedInUser>>;
const other = await createSignedInUser(app);
const longFile = await insertFile(db, { authorId: owner.id, durationMs: 30 * MINUTE });
const shortFile = await insertFile(db, { authorId: owner.id, durationMs: 150_000 });
const privateFile = await insertFile(db, { authorId: owner.id, durationMs: 10 * MINUTE, isPublic: false });

function post(payload: unknown, token?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/session',
    payload: payload as object,
    headers: token ? authHeader(token) : {},
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

beforeEach(async () => {
  clock.set('2026-06-01T12:00:00Z');
  listener = await createSignedInUser(app);
});

describe('listeningPoints', () => {
  const startedAt = new Date('2026-06-01T12:00:00Z');
  const at = (ms: number) => new Date(startedAt.getTime() + ms);

  it('counts whole minutes of wall-clock time', () => {
    expect(
      listeningPoints({ startedAt, endedAt: at(59_999), creditedUntil: null, fileDurationMs: 1e9 }),
    ).toBe(0);
    expect(
      listeningPoints({
        startedAt,
        endedAt: at(3 * MINUTE + 59_000),
        creditedUntil: null,
        fileDurationMs: 1e9,
      }),
    ).toBe(3);
  });

  it('is capped by the file duration and by the time actually played', () => {
    expect(
      listeningPoints({ startedAt, endedAt: at(60 * MINUTE), creditedUntil: null, fileDurationMs: 150_000 }),
    ).toBe(2);
    expect(
      listeningPoints({
        startedAt,
        endedAt: at(60 * MINUTE),
        creditedUntil: null,
        fileDurationMs: 1e9,
        listenedMs: 5 * MINUTE,
      }),
    ).toBe(5);
  });

  it('only counts time after the last credited session ended', () => {
    expect(
      listeningPoints({
        startedAt,
        endedAt: at(10 * MINUTE),
        creditedUntil: at(7 * MINUTE),
        fileDurationMs: 1e9,
      }),
    ).toBe(3);
    expect(
      listeningPoints({
        startedAt,
        endedAt: at(10 * MINUTE),
        creditedUntil: at(-5 * MINUTE),
        fileDurationMs: 1e9,
      }),
    ).toBe(10);
    expect(
      listeningPoints({
        startedAt,
        endedAt: at(10 * MINUTE),
        creditedUntil: at(11 * MINUTE),
        fileDurationMs: 1e9,
      }),
    ).toBe(0);
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
});

describe('POST /api/session (end)', () => {
  it('awards one point per whole minute, counts a play and starts the streak', async () => {
    const token = await start(listener.token);
    const playsBefore = await filePlays(db, longFile);
    clock.advance(5 * MINUTE + 30_000);
    const res = await end(token, longFile, listener.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token, points: 5, totalPoints: 5, streak: 1 });
    expect(await filePlays(db, longFile)).toBe(playsBefore + 1);
    expect(await listenerState(db, listener.id)).toEqual({
      points: 5,
      streak: 1,
      lastListenDay: '2026-06-01',
    });
    expect((await storedSessions(db)).at(-1)).toMatchObject({
      userId: listener.id,
      fileId: longFile,
      points: 5,
    });
  });

  it('cannot be inflated by ending early: points follow the wall clock', async () => {
    const token = await start(listener.token);
    clock.advance(59_000);
    expect((await end(token, longFile, listener.token)).json()).toMatchObject({ points: 0, totalPoints: 0 });
  });

  it('awards once per session: a second end is 409 and changes nothing', async () => {
    const token = await start(listener.token);
    clock.advance(3 * MINUTE);
    expect((await end(token, longFile, listener.token)).json().points).toBe(3);
    const plays = await filePlays(db, longFile);
    clock.advance(10 * MINUTE);
    const again = await end(token, longFile, listener.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This listening session has already ended.' });
    expect(await filePlays(db, longFile)).toBe(plays);
    expect((await listenerState(db, listener.id)).points).toBe(3);
  });

  it('awards once when two ends race', async () => {
    const token = await start(listener.token);
    clock.advance(4 * MINUTE);
    const results = await Promise.all([
      end(token, longFile, listener.token),
      end(token, longFile, listener.token),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await listenerState(db, listener.id)).points).toBe(4);
  });

  it('is capped by the file duration', async () => {
    const token = await start(listener.token);
    clock.advance(60 * MINUTE);
    expect((await end(token, shortFile, listener.token)).json()).toMatchObject({ points: 2, totalPoints: 2 });
  });

  it('is capped by the time the player says it played', async () => {
    const token = await start(listener.token);
    clock.advance(20 * MINUTE);
    const res = await end(token, longFile, listener.token, { listenedMs: 4 * MINUTE + 59_999 });
    expect(res.json()).toMatchObject({ points: 4 });
  });

  it('does not count the same minutes twice for overlapping sessions', async () => {
    const first = await start(listener.token);
    const second = await start(listener.token);
    clock.advance(10 * MINUTE);
    expect((await end(first, longFile, listener.token)).json().points).toBe(10);
    expect((await end(second, longFile, listener.token)).json().points).toBe(0);
    clock.advance(2 * MINUTE);
    const third = await start(listener.token);
    clock.advance(3 * MINUTE);
    expect((await end(third, longFile, listener.token)).json()).toMatchObject({ points: 3, totalPoints: 13 });
  });

  it('gives anonymous listeners no points but counts the play', async () => {
    const token = await start();
    const plays = await filePlays(db, longFile);
    clock.advance(10 * MINUTE);
    const res = await end(token, longFile);
    expect(res.json()).toEqual({ token, points: 0, totalPoints: 0, streak: 0 });
    expect(await filePlays(db, longFile)).toBe(plays + 1);
  });

  it('gives no points for a session started anonymously and ended signed in', async () => {
    const token = await start();
    clock.advance(10 * MINUTE);
    expect((await end(token, longFile, listener.token)).json()).toMatchObject({ points: 0 });
    expect((await listenerState(db, listener.id)).points).toBe(0);
  });

  it("treats another user's session as unknown (404), and a signed-out end of a user's session too", async () => {
    const token = await start(listener.token);
    clock.advance(5 * MINUTE);
    const res = await end(token, longFile, other.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Listening session not found.' });
    expect((await end(token, longFile)).statusCode).toBe(404);
    expect((await end(token, longFile, listener.token)).json().points).toBe(5);
  });

  it('answers 404 for an unknown token and for a file the listener cannot see, leaving the session open', async () => {
    expect((await end('no-such-token', longFile, listener.token)).statusCode).toBe(404);
    const token = await start(listener.token);
    clock.advance(2 * MINUTE);
    const hidden = await end(token, privateFile, listener.token);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'File not found.' });
    expect((await end(token, 999_999, listener.token)).statusCode).toBe(404);
    expect((await end(token, longFile, listener.token)).json().points).toBe(2);
  });

  it('requires fileId when ending, and validates the fields', async () => {
    const token = await start(listener.token);
    const missing = await post({ sessionToken: token, timezone: 'UTC' }, listener.token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'fileId' });
    const badFile = await post({ sessionToken: token, fileId: 'x' }, listener.token);
    expect(badFile.statusCode).toBe(400);
    expect(badFile.json()).toMatchObject({ field: 'fileId' });
    const badListened = await end(token, longFile, listener.token, { listenedMs: -1 });
    expect(badListened.json()).toMatchObject({ field: 'listenedMs' });
    expect((await storedSessions(db)).find((s) => s.fileId !== null && s.endedAt === null)).toBeUndefined();
  });
});

describe('daily streak', () => {
  async function listen(at: string, timezone: string, minutes = 2) {
    clock.set(at);
    const token = await start(listener.token, timezone);
    clock.advance(minutes * MINUTE);
    const res = await post({ sessionToken: token, fileId: longFile, timezone }, listener.token);
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

  it("falls back to the account's time zone when none is sent", async () => {
    clock.set('2026-06-01T12:00:00Z');
    const token = await start(listener.token);
    clock.advance(MINUTE);
    const res = await post({ sessionToken: token, fileId: longFile }, listener.token);
    expect(res.json()).toMatchObject({ points: 1, streak: 1 });
    expect((await listenerState(db, listener.id)).lastListenDay).toBe('2026-06-01');
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
    ]);
    expect(call.description).toContain(
      'A session started anonymously earns 0 points and only counts the play.',
    );
    expect(call.description).toContain('a second end is 409');
  });
});
