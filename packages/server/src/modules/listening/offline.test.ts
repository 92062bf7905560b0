import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { offlineCopies, userMemberships } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTier, grantMembership } from '../../test/library-factories.ts';
import { creditedMs } from './listening.service.ts';
import {
  type AudioTestFile,
  createAudioFile,
  filePlays,
  listenerState,
  setListenerState,
  storedSessions,
} from './listening.test-data.ts';

// POST /api/session/offline: plays made from a copy kept offline, sent when the network is back
// (docs/decisions/029-offline-listening.md).

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const owner = await createUser(db);
await createTier(db, { id: 'gold', rank: 1 });
// Audio is stored at one byte per 100 ms: the 30-minute file has 18,000 bytes.
const longFile = await createAudioFile(app, { authorId: owner.id, duration: 30 * MINUTE });
const shortFile = await createAudioFile(app, { authorId: owner.id, duration: 150_000 });
const lockedFile = await createAudioFile(app, {
  authorId: owner.id,
  duration: 30 * MINUTE,
  tierIds: ['gold'],
});
const privateFile = await createAudioFile(app, {
  authorId: owner.id,
  duration: 30 * MINUTE,
  isPublic: false,
});

let listener: Awaited<ReturnType<typeof createSignedInUser>>;

/** The instant `ms` after noon of 1 June 2026, when each test's clock starts. */
const at = (ms: number) => new Date(Date.parse('2026-06-01T12:00:00Z') + ms);
const iso = (ms: number) => at(ms).toISOString();

/** The "Keep offline" download: the whole audio, fetched with `offline=1`. */
function keep(file: AudioTestFile, token = listener.token, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url: `${file.audioUrl()}&offline=1`,
    headers: { ...authHeader(token), ...headers },
  });
}

function send(sessions: object[], token: string | null = listener.token) {
  return app.inject({
    method: 'POST',
    url: '/api/session/offline',
    payload: { sessions },
    headers: token ? authHeader(token) : {},
  });
}

/** An offline play of `file` from `startMs` to `endMs` (after noon), with `listenedMs` played. */
function play(file: AudioTestFile, startMs: number, endMs: number, listenedMs = endMs - startMs) {
  return { fileId: file.id, startedAt: iso(startMs), endedAt: iso(endMs), listenedMs };
}

async function copies(userId: number) {
  return db
    .select({ fileId: offlineCopies.fileId, copiedAt: offlineCopies.copiedAt })
    .from(offlineCopies)
    .where(eq(offlineCopies.userId, userId));
}

async function offlineRows(userId: number) {
  return (await storedSessions(db)).filter((s) => s.userId === userId && s.offline);
}

beforeEach(async () => {
  clock.set(iso(0));
  listener = await createSignedInUser(app);
});

describe('keeping a copy (GET /media/audio/…&offline=1)', () => {
  it('records the first whole download of a signed-in listener, and only that', async () => {
    const whole = await keep(longFile);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.length).toBe(longFile.size);
    expect(await copies(listener.id)).toEqual([{ fileId: longFile.id, copiedAt: at(0) }]);

    // A later download keeps the first time.
    clock.advance(HOUR);
    expect((await keep(longFile)).statusCode).toBe(200);
    expect(await copies(listener.id)).toEqual([{ fileId: longFile.id, copiedAt: at(0) }]);
  });

  it('records nothing for part of the file, without the flag, or for a visitor', async () => {
    const part = await keep(shortFile, listener.token, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(
      (await app.inject({ method: 'GET', url: shortFile.audioUrl(), headers: authHeader(listener.token) }))
        .statusCode,
    ).toBe(200);
    const visitor = await app.inject({ method: 'GET', url: `${shortFile.audioUrl()}&offline=1` });
    expect(visitor.statusCode).toBe(200);
    expect(await copies(listener.id)).toEqual([]);
  });

  it('sends the body even to a conditional request, so the copy is really served', async () => {
    const etag = (
      await app.inject({ method: 'GET', url: shortFile.audioUrl(), headers: authHeader(listener.token) })
    ).headers.etag as string;
    const res = await keep(shortFile, listener.token, { 'if-none-match': etag });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(shortFile.size);
    expect(await copies(listener.id)).toEqual([{ fileId: shortFile.id, copiedAt: at(0) }]);
  });

  it('answers 400 for another value of the flag', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${longFile.audioUrl()}&offline=yes`,
      headers: authHeader(listener.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('offline');
  });
});

describe('POST /api/session/offline', () => {
  it('credits a play of a kept copy: points, the play, the streak by its own day and a stored session', async () => {
    await keep(longFile);
    await setListenerState(db, listener.id, { points: 4, streak: 3, lastListenDay: '2026-05-31' });
    const plays = await filePlays(db, longFile.id);
    clock.advance(3 * HOUR);

    const res = await send([play(longFile, 10 * MINUTE, 25 * MINUTE, 12 * MINUTE + 30_000)]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      sessions: [
        {
          fileId: longFile.id,
          startedAt: iso(10 * MINUTE),
          status: 'credited',
          creditedMs: 12 * MINUTE + 30_000,
          points: 12,
        },
      ],
      points: 12,
      totalPoints: 16,
      streak: 4,
    });
    expect(await listenerState(db, listener.id)).toEqual({
      points: 16,
      streak: 4,
      lastListenDay: '2026-06-01',
    });
    expect(await filePlays(db, longFile.id)).toBe(plays + 1);
    expect(await offlineRows(listener.id)).toMatchObject([
      {
        fileId: longFile.id,
        startedAt: at(10 * MINUTE),
        endedAt: at(25 * MINUTE),
        creditedMs: 12 * MINUTE + 30_000,
        points: 12,
        playListener: `user:${listener.id}`,
      },
    ]);
  });

  it('credits the least of the wall clock, the duration and the time played; seconds carry over', async () => {
    await keep(shortFile);
    clock.advance(DAY);
    const res = await send([
      // 10 minutes of wall clock, but the track is 150 s long.
      play(shortFile, 0, 10 * MINUTE, 20 * MINUTE),
      // Says 5 minutes were played in 40 s of wall clock.
      play(shortFile, 20 * MINUTE, 20 * MINUTE + 40_000, 5 * MINUTE),
    ]);
    expect(
      res.json().sessions.map((s: { creditedMs: number; points: number }) => [s.creditedMs, s.points]),
    ).toEqual([
      [150_000, 2],
      [40_000, 1],
    ]);
    expect(res.json()).toMatchObject({ points: 3, totalPoints: 3 });
  });

  it('answers 401 to a visitor', async () => {
    const res = await send([play(longFile, 0, MINUTE)], null);
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: [object[], string][] = [
      [[{ ...play(longFile, 0, MINUTE), fileId: 0 }], 'sessions.0.fileId'],
      [
        [play(longFile, 0, MINUTE), { ...play(longFile, 0, MINUTE), startedAt: 'yesterday' }],
        'sessions.1.startedAt',
      ],
      [[play(longFile, MINUTE, 0, MINUTE)], 'sessions.0.endedAt'],
      [[{ ...play(longFile, 0, MINUTE), listenedMs: -1 }], 'sessions.0.listenedMs'],
      [[], 'sessions'],
      [Array.from({ length: 51 }, (_, i) => play(longFile, i * MINUTE, (i + 1) * MINUTE)), 'sessions'],
    ];
    for (const [sessions, field] of cases) {
      const res = await send(sessions);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
      expect(res.json().error).toMatch(new RegExp(`^${field.replaceAll('.', '\\.')}: `));
    }
    expect(await listenerState(db, listener.id)).toMatchObject({ points: 0 });
  });

  it('refuses a file the listener cannot play now: a lapsed membership, a private file', async () => {
    await grantMembership(db, listener.id, 'gold');
    expect((await keep(lockedFile)).statusCode).toBe(200);
    await db.update(userMemberships).set({ active: false }).where(eq(userMemberships.userId, listener.id));
    clock.advance(HOUR);
    const res = await send([
      play(lockedFile, MINUTE, 11 * MINUTE),
      play(privateFile, 20 * MINUTE, 30 * MINUTE),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().sessions).toEqual([
      {
        fileId: lockedFile.id,
        startedAt: iso(MINUTE),
        status: 'refused',
        reason: 'no-access',
        creditedMs: 0,
        points: 0,
      },
      {
        fileId: privateFile.id,
        startedAt: iso(20 * MINUTE),
        status: 'refused',
        reason: 'no-access',
        creditedMs: 0,
        points: 0,
      },
    ]);
    expect(await listenerState(db, listener.id)).toMatchObject({ points: 0 });
    expect(await offlineRows(listener.id)).toEqual([]);
  });

  it('refuses a play without a copy kept before it started', async () => {
    clock.advance(30 * MINUTE);
    await keep(longFile);
    clock.advance(HOUR);
    // Before the copy (noon to 12:20) and after it, but of a file never kept.
    const res = await send([play(longFile, 0, 20 * MINUTE), play(shortFile, 40 * MINUTE, 42 * MINUTE)]);
    expect(res.json().sessions.map((s: { reason: string }) => s.reason)).toEqual([
      'no-offline-copy',
      'no-offline-copy',
    ]);
    expect(res.json()).toMatchObject({ points: 0, totalPoints: 0 });
    // Another listener's copy is not theirs.
    const other = await createSignedInUser(app);
    expect(
      (await send([play(longFile, 40 * MINUTE, 50 * MINUTE)], other.token)).json().sessions[0].reason,
    ).toBe('no-offline-copy');
  });

  it('refuses a play that ends after the server clock, or started more than 7 days ago', async () => {
    await keep(longFile);
    clock.advance(10 * MINUTE);
    const future = await send([play(longFile, MINUTE, 10 * MINUTE + 1)]);
    expect(future.json().sessions[0]).toMatchObject({ status: 'refused', reason: 'in-future' });

    clock.advance(7 * DAY);
    const res = await send([
      play(longFile, MINUTE, 5 * MINUTE),
      play(longFile, 10 * MINUTE + 1, 15 * MINUTE),
    ]);
    expect(res.json().sessions.map((s: { status: string; reason?: string }) => s.reason ?? s.status)).toEqual(
      ['too-old', 'credited'],
    );
  });

  it('refuses a play that heard nothing', async () => {
    await keep(longFile);
    clock.advance(HOUR);
    expect((await send([play(longFile, MINUTE, 5 * MINUTE, 0)])).json().sessions[0].reason).toBe(
      'nothing-heard',
    );
  });

  it('never credits time twice: overlaps with online and offline sessions are cut or refused', async () => {
    await keep(longFile);
    // An online session credited 12:10 to 12:20.
    clock.set(iso(10 * MINUTE));
    const start = await app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { timezone: 'UTC' },
      headers: authHeader(listener.token),
    });
    const token = start.json().token;
    await app.inject({ method: 'GET', url: longFile.audioUrl(token), headers: authHeader(listener.token) });
    clock.set(iso(20 * MINUTE));
    const ended = await app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { sessionToken: token, fileId: longFile.id },
      headers: authHeader(listener.token),
    });
    expect(ended.json()).toMatchObject({ points: 10 });
    clock.advance(HOUR);

    const res = await send([
      // Inside the online session: nothing left.
      play(longFile, 12 * MINUTE, 18 * MINUTE),
      // 12:15 to 12:25: only the five minutes after it.
      play(longFile, 15 * MINUTE, 25 * MINUTE),
      // 12:22 to 12:32 overlaps the one before (sent in the same call): 12:25 to 12:32.
      play(longFile, 22 * MINUTE, 32 * MINUTE),
    ]);
    expect(
      res
        .json()
        .sessions.map((s: { status: string; reason?: string; creditedMs: number }) => [
          s.reason ?? s.status,
          s.creditedMs,
        ]),
    ).toEqual([
      ['overlap', 0],
      ['credited', 5 * MINUTE],
      ['credited', 7 * MINUTE],
    ]);
    expect(res.json()).toMatchObject({ points: 12, totalPoints: 22 });
    // Later calls see the offline time as credited too.
    const again = await send([play(longFile, 24 * MINUTE, 31 * MINUTE)]);
    expect(again.json().sessions[0]).toMatchObject({ status: 'refused', reason: 'overlap' });
  });

  it('credits a session sent twice once: the retry answers what the first call credited', async () => {
    await keep(longFile);
    clock.advance(HOUR);
    const session = play(longFile, MINUTE, 6 * MINUTE);
    const first = await send([session, session]);
    expect(first.json()).toMatchObject({
      sessions: [
        { status: 'credited', creditedMs: 5 * MINUTE, points: 5 },
        { status: 'already-credited', creditedMs: 5 * MINUTE, points: 5 },
      ],
      points: 5,
      totalPoints: 5,
    });
    const retry = await send([session]);
    expect(retry.json()).toEqual({
      sessions: [
        {
          fileId: longFile.id,
          startedAt: session.startedAt,
          status: 'already-credited',
          creditedMs: 5 * MINUTE,
          points: 5,
        },
      ],
      points: 0,
      totalPoints: 5,
      streak: 1,
    });
    // The same start written with another offset is the same session.
    const shifted = { ...session, startedAt: '2026-06-01T14:01:00+02:00' };
    expect((await send([shifted])).json().sessions[0].status).toBe('already-credited');
    expect(await offlineRows(listener.id)).toHaveLength(1);
    expect(await listenerState(db, listener.id)).toMatchObject({ points: 5 });
  });

  it('counts a play once per listener and file within an hour of its end', async () => {
    await keep(shortFile);
    clock.advance(DAY);
    const plays = await filePlays(db, shortFile.id);
    await send([
      play(shortFile, 0, 3 * MINUTE),
      play(shortFile, 10 * MINUTE, 13 * MINUTE),
      play(shortFile, 2 * HOUR, 2 * HOUR + 3 * MINUTE),
    ]);
    expect(await filePlays(db, shortFile.id)).toBe(plays + 2);
    // A short listen is not a play (30 s, or half of a shorter track).
    await send([play(shortFile, 5 * HOUR, 5 * HOUR + 29_000)]);
    expect(await filePlays(db, shortFile.id)).toBe(plays + 2);
  });

  it("moves the streak by each session's own day, and never back", async () => {
    await keep(longFile);
    await setListenerState(db, listener.id, { streak: 2, lastListenDay: '2026-06-01' });
    clock.advance(3 * DAY);
    const res = await send([
      // 2 June, then 3 June: the streak grows as it would have online.
      play(longFile, DAY, DAY + 2 * MINUTE),
      play(longFile, 2 * DAY, 2 * DAY + 2 * MINUTE),
    ]);
    expect(res.json()).toMatchObject({ streak: 4 });
    expect(await listenerState(db, listener.id)).toMatchObject({ streak: 4, lastListenDay: '2026-06-03' });
    // A day before the last counted one changes nothing.
    expect((await send([play(longFile, 30 * MINUTE, 40 * MINUTE)])).json()).toMatchObject({
      streak: 4,
      points: 10,
    });
    expect(await listenerState(db, listener.id)).toMatchObject({ streak: 4, lastListenDay: '2026-06-03' });
  });
});

describe('creditedMs with credited spans', () => {
  it('leaves out the time the spans cover, counting overlapping spans once', () => {
    const plenty = { fileDurationMs: 1e9, deliveredMs: 1e9, creditedUntil: null };
    const span = (from: number, to: number) => ({ startedAt: at(from), endedAt: at(to) });
    const session = { startedAt: at(0), endedAt: at(10 * MINUTE), ...plenty };
    expect(creditedMs({ ...session, creditedSpans: [] })).toBe(10 * MINUTE);
    expect(
      creditedMs({ ...session, creditedSpans: [span(-MINUTE, MINUTE), span(9 * MINUTE, 20 * MINUTE)] }),
    ).toBe(8 * MINUTE);
    expect(
      creditedMs({
        ...session,
        creditedSpans: [
          span(2 * MINUTE, 5 * MINUTE),
          span(3 * MINUTE, 4 * MINUTE),
          span(4 * MINUTE, 6 * MINUTE),
        ],
      }),
    ).toBe(6 * MINUTE);
    expect(creditedMs({ ...session, creditedSpans: [span(-HOUR, HOUR)] })).toBe(0);
    // Heard time still caps what is left.
    expect(creditedMs({ ...session, listenedMs: 3 * MINUTE, creditedSpans: [span(0, 5 * MINUTE)] })).toBe(
      3 * MINUTE,
    );
  });
});
