import fs from 'node:fs';
import { eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  files,
  insightsFileDays,
  insightsListenerLastDayCounts,
  insightsSiteDays,
  listeningSessions,
} from '../../db/schema/index.ts';
import { removeAudioFixtures, sineFile } from '../../test/audio-fixtures.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createPlaylist, createTier, createTrigger, grantMembership } from '../../test/library-factories.ts';
import { uploadAndPublish } from '../../test/uploads.ts';
import { type AudioTestFile, createAudioFile, filePlays } from '../listening/listening.test-data.ts';
import { analyseStoredAudio } from '../uploads/analyse-library.ts';
import { rebuildInsightsRollups } from './insights-rollups.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const SECOND = 1000;
clock.set('2026-06-01T12:00:00Z');
afterAll(() => removeAudioFixtures());

await createUser(db); // id 1, the site owner
const admin = await createSignedInUser(app, { roles: ['Administrator'] });
const moderator = await createSignedInUser(app, { roles: ['Moderator'] });
const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
const otherCreator = await createSignedInUser(app, { roles: ['Verified Creator'] });
const trigger = await createTrigger(db, { name: 'Deeper', creatorId: null });
// 100 s of audio stored at one byte per 100 ms: 1,000 bytes, byte b is at b/10 s.
const file = await createAudioFile(app, {
  authorId: creator.id,
  duration: 100 * SECOND,
  triggers: [{ id: trigger.id, trains: true }],
});
const privateFile = await createAudioFile(app, {
  authorId: creator.id,
  duration: 100 * SECOND,
  isPublic: false,
});
const playlist = await createPlaylist(db, { creatorId: otherCreator.id, name: 'Night', fileIds: [file.id] });
await createPlaylist(db, { creatorId: otherCreator.id, name: 'Hidden', fileIds: [file.id], isPublic: false });

type Listener = Awaited<ReturnType<typeof createSignedInUser>>;

function get(url: string, token?: string) {
  return app.inject({ method: 'GET', url, headers: token ? authHeader(token) : {} });
}

/**
 * One listening session through the real calls: start (with the source), the media route serving
 * `range`, `seconds` on the clock, end (with the toy flag). Answers the end's body.
 */
async function listen(
  listener: Listener | null,
  f: AudioTestFile,
  opts: { range: string; seconds: number; source?: string; toyConnected?: boolean },
) {
  const headers = listener ? authHeader(listener.token) : {};
  const started = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers,
    payload: { timezone: 'UTC', ...(opts.source && { source: opts.source }) },
  });
  expect(started.statusCode).toBe(200);
  const session = started.json().token as string;
  const served = await app.inject({
    method: 'GET',
    url: f.audioUrl(session),
    headers: { ...headers, range: opts.range },
  });
  expect(served.statusCode).toBe(206);
  clock.advance(opts.seconds * SECOND);
  const ended = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers,
    payload: {
      sessionToken: session,
      fileId: f.id,
      timezone: 'UTC',
      ...(opts.toyConnected !== undefined && { toyConnected: opts.toyConnected }),
    },
  });
  expect(ended.statusCode).toBe(200);
  return ended.json();
}

const listeners: Listener[] = [];
let optedOut: Listener;

describe('insights of a file, built from real sessions', () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) listeners.push(await createSignedInUser(app));
    optedOut = await createSignedInUser(app);
  });

  it('withholds the audience below 5 distinct listeners, shows only the plays', async () => {
    // Four listeners hear the first half (bytes 0-499 = 0-50 s) from the file page.
    for (const listener of listeners.slice(0, 4)) {
      await listen(listener, file, { range: 'bytes=0-499', seconds: 60, source: 'file-page' });
    }
    const res = await get(`/api/insights/files/${file.id}?period=7`, creator.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.plays).toEqual({ current: 4, previous: 0 });
    expect(body.audience).toEqual({ withheld: true, minListeners: 5 });
    expect(body.retention).toBeNull();
    expect(body.tiers).toBeNull();
    expect(body.period).toEqual({
      days: 7,
      bucket: 'day',
      from: '2026-05-26',
      to: '2026-06-01',
      previousFrom: '2026-05-19',
      previousTo: '2026-05-25',
    });
    expect(body.playlists).toEqual({
      count: 1,
      items: [{ id: playlist.id, uuid: playlist.uuid, name: 'Night' }],
    });
  });

  it('shows exact figures from the fifth listener on: plays, listeners, time, retention, sources, toy', async () => {
    // The fifth hears it all from a core playlist with a toy connected.
    await listen(listeners[4], file, {
      range: 'bytes=0-999',
      seconds: 120,
      source: 'core-playlist',
      toyConnected: true,
    });
    const body = (await get(`/api/insights/files/${file.id}?period=7`, creator.token)).json();
    expect(body.plays).toEqual({ current: 5, previous: 0 });
    const { audience } = body;
    expect(audience.withheld).toBe(false);
    expect(audience.listeners).toEqual({ current: 5, previous: null });
    expect(audience.listeningMs).toEqual({ current: 4 * 50_000 + 100_000, previous: null });
    expect(audience.averageShareHeard.current).toBeCloseTo((4 * 0.5 + 1) / 5, 10);
    expect(audience.completionRate.current).toBeCloseTo(0.2, 10);
    expect(audience.toyPlays).toBe(1);
    expect(audience.toyShare).toBeCloseTo(0.2, 10);
    expect(audience.sources).toEqual([
      { source: 'core-playlist', plays: 1 },
      { source: 'file-page', plays: 4 },
    ]);
    expect(audience.series).toHaveLength(7);
    expect(audience.series[0]).toEqual({
      start: '2026-05-26',
      plays: 0,
      listeners: 0,
      previousPlays: 0,
      previousListeners: null,
    });
    expect(audience.series[6]).toEqual({
      start: '2026-06-01',
      plays: 5,
      listeners: 5,
      previousPlays: 0,
      previousListeners: null,
    });
    // Everyone heard the first half; one in five the second.
    expect(body.retention).toHaveLength(100);
    expect(body.retention[0]).toBe(1);
    expect(body.retention[49]).toBe(1);
    expect(body.retention[50]).toBeCloseTo(0.2, 10);
    expect(body.retention[99]).toBeCloseTo(0.2, 10);
    expect(body.tiers).toBeNull();
  });

  it('does not count a listener who opted out, while the file still counts the play', async () => {
    const optOut = await app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: authHeader(optedOut.token),
      payload: { insightsOptOut: true },
    });
    expect(optOut.statusCode).toBe(200);
    expect(optOut.json().user.insightsOptOut).toBe(true);
    await listen(optedOut, file, { range: 'bytes=0-999', seconds: 120, source: 'generator' });
    expect(await filePlays(db, file.id)).toBe(6);
    const body = (await get(`/api/insights/files/${file.id}?period=7`, creator.token)).json();
    expect(body.plays).toEqual({ current: 5, previous: 0 });
    expect(body.audience.listeners.current).toBe(5);
    expect(body.audience.sources.map((s: { source: string }) => s.source)).not.toContain('generator');
  });

  it('records the source, the toy and no tier on the session row', async () => {
    const rows = await db
      .select({
        source: listeningSessions.source,
        toy: listeningSessions.toyConnected,
        tier: listeningSessions.supporterTierId,
      })
      .from(listeningSessions)
      .where(eq(listeningSessions.userId, listeners[4].id));
    expect(rows).toEqual([{ source: 'core-playlist', toy: true, tier: null }]);
  });

  it('buckets by week and compares with the previous period after time passes', async () => {
    clock.set('2026-06-08T12:00:00Z');
    const body = (await get(`/api/insights/files/${file.id}?period=7&bucket=week`, creator.token)).json();
    expect(body.plays).toEqual({ current: 0, previous: 5 });
    expect(body.audience).toEqual({ withheld: true, minListeners: 5 });
    const month = (await get(`/api/insights/files/${file.id}?period=28&bucket=week`, creator.token)).json();
    expect(month.period.from).toBe('2026-05-12');
    // 2026-06-01 is a Monday: its week holds every play.
    expect(month.audience.series.find((p: { start: string }) => p.start === '2026-06-01')).toEqual({
      start: '2026-06-01',
      plays: 5,
      listeners: 5,
      previousPlays: 0,
      previousListeners: null,
    });
    expect(month.audience.series[0].start).toBe('2026-05-11');
    clock.set('2026-06-01T12:10:00Z');
  });

  it("a creator's catalogue: totals, audience and top files", async () => {
    const res = await get(`/api/insights/creators/${creator.id}?period=7`, creator.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.creator).toEqual({ id: creator.id, username: creator.username });
    expect(body.fileCount).toBe(2);
    expect(body.plays).toEqual({ current: 5, previous: 0 });
    expect(body.audience.listeners).toEqual({ current: 5, previous: null });
    expect(body.topFiles).toEqual([
      { id: file.id, uuid: file.uuid, name: file.name, plays: 5, previousPlays: 0 },
    ]);
  });

  it('rebuilding the rollups from the raw sessions gives the same figures', async () => {
    const before = await db.select().from(insightsFileDays);
    const siteBefore = await db.select().from(insightsSiteDays);
    const lastDayCounts = () =>
      db
        .select()
        .from(insightsListenerLastDayCounts)
        .where(ne(insightsListenerLastDayCounts.keys, 0))
        .orderBy(insightsListenerLastDayCounts.scope, insightsListenerLastDayCounts.scopeId);
    const countsBefore = await lastDayCounts();
    expect(countsBefore).toEqual([
      { scope: 'creator', scopeId: creator.id, lastDay: '2026-06-01', keys: 5 },
      { scope: 'file', scopeId: file.id, lastDay: '2026-06-01', keys: 5 },
    ]);
    expect(await rebuildInsightsRollups(db)).toBe(6);
    expect(await db.select().from(insightsFileDays)).toEqual(before);
    expect(await db.select().from(insightsSiteDays)).toEqual(siteBefore);
    expect(await lastDayCounts()).toEqual(countsBefore);
  });
});

describe('access', () => {
  it('401 signed out, 403 for another creator, 404 for a file they cannot see, staff read any', async () => {
    expect((await get(`/api/insights/files/${file.id}`)).statusCode).toBe(401);
    const other = await get(`/api/insights/files/${file.id}`, otherCreator.token);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'Only the uploader or staff see its insights.' });
    expect((await get(`/api/insights/files/${privateFile.id}`, otherCreator.token)).statusCode).toBe(404);
    expect((await get('/api/insights/files/999999', creator.token)).statusCode).toBe(404);
    expect((await get(`/api/insights/files/${privateFile.id}`, creator.token)).statusCode).toBe(200);
    expect((await get(`/api/insights/files/${file.id}`, admin.token)).statusCode).toBe(200);
    expect((await get(`/api/insights/files/${file.id}`, moderator.token)).statusCode).toBe(403);
  });

  it("another creator's catalogue is 403, an unknown user's 404 for staff", async () => {
    expect((await get(`/api/insights/creators/${creator.id}`)).statusCode).toBe(401);
    expect((await get(`/api/insights/creators/${creator.id}`, otherCreator.token)).statusCode).toBe(403);
    expect((await get(`/api/insights/creators/${creator.id}`, admin.token)).statusCode).toBe(200);
    expect((await get('/api/insights/creators/999999', admin.token)).statusCode).toBe(404);
  });

  it('400 naming the field', async () => {
    const period = await get(`/api/insights/files/${file.id}?period=30`, creator.token);
    expect(period.statusCode).toBe(400);
    expect(period.json()).toMatchObject({ field: 'period' });
    const bucket = await get(`/api/insights/creators/${creator.id}?bucket=month`, creator.token);
    expect(bucket.statusCode).toBe(400);
    expect(bucket.json()).toMatchObject({ field: 'bucket' });
    const id = await get('/api/insights/files/abc', creator.token);
    expect(id.statusCode).toBe(400);
    expect(id.json()).toMatchObject({ field: 'id' });
    const source = await app.inject({ method: 'POST', url: '/api/session', payload: { source: 'radio' } });
    expect(source.statusCode).toBe(400);
    expect(source.json()).toMatchObject({ field: 'source' });
    const offline = await app.inject({ method: 'POST', url: '/api/session', payload: { source: 'offline' } });
    expect(offline.statusCode).toBe(400);
    const toy = await app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { sessionToken: 'x', fileId: file.id, toyConnected: 'yes' },
    });
    expect(toy.statusCode).toBe(400);
    expect(toy.json()).toMatchObject({ field: 'toyConnected' });
    const optOut = await app.inject({
      method: 'PUT',
      url: '/api/user',
      headers: authHeader(creator.token),
      payload: { insightsOptOut: 'no' },
    });
    expect(optOut.statusCode).toBe(400);
    expect(optOut.json()).toMatchObject({ field: 'insightsOptOut' });
  });
});

describe('tier-locked files', () => {
  it('counts plays by the tier the listener held, withheld below 5 listeners', async () => {
    await createTier(db, { id: 'silver', rank: 1 });
    await createTier(db, { id: 'gold', rank: 2 });
    const locked = await createAudioFile(app, {
      authorId: creator.id,
      duration: 100 * SECOND,
      tierIds: ['silver'],
    });
    const patrons: Listener[] = [];
    for (let i = 0; i < 5; i++) {
      const patron = await createSignedInUser(app);
      await grantMembership(db, patron.id, i < 3 ? 'silver' : 'gold');
      patrons.push(patron);
    }
    for (const patron of patrons.slice(0, 4))
      await listen(patron, locked, { range: 'bytes=0-999', seconds: 120 });
    expect((await get(`/api/insights/files/${locked.id}?period=7`, creator.token)).json().tiers).toBeNull();
    await listen(patrons[4], locked, { range: 'bytes=0-999', seconds: 120 });
    const body = (await get(`/api/insights/files/${locked.id}?period=7`, creator.token)).json();
    expect(body.tiers).toEqual([
      { tierId: 'gold', name: expect.any(String), rank: 2, plays: 2 },
      { tierId: 'silver', name: expect.any(String), rank: 1, plays: 3 },
    ]);
    expect(body.audience.sources).toEqual([{ source: 'unknown', plays: 5 }]);
  });
});

describe('your listening', () => {
  it("answers the listener's own calendar, streak, level, most played, trained triggers", async () => {
    expect((await get('/api/insights/listening')).statusCode).toBe(401);
    const res = await get('/api/insights/listening', listeners[4].token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timezone).toBe('UTC');
    expect(body.to).toBe('2026-06-01');
    expect(body.from).toBe('2025-06-02');
    // 100 s credited: one whole minute.
    expect(body.days).toEqual([{ day: '2026-06-01', minutes: 1 }]);
    expect(body.totalMinutes).toBe(1);
    expect(body.streak).toEqual({ current: 1, longest: 1 });
    expect(body.streakHistory).toEqual([{ from: '2026-06-01', to: '2026-06-01', days: 1 }]);
    expect(body.level).toMatchObject({ current: 1 });
    expect(body.topFiles).toEqual([
      { id: file.id, uuid: file.uuid, name: file.name, plays: 1, listeningMs: 100_000 },
    ]);
    expect(body.trainedTriggers).toEqual([{ id: trigger.id, name: 'Deeper', plays: 1 }]);
    expect(body.plans).toEqual([]);
    expect(body.insightsOptOut).toBe(false);
  });

  it("the account export holds the listener's sessions and daily listening", async () => {
    const res = await get('/api/user/export', listeners[4].token);
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.listeningHistory).toEqual([
      {
        fileUuid: file.uuid,
        fileName: file.name,
        startedAt: '2026-06-01T12:04:00.000Z',
        endedAt: '2026-06-01T12:06:00.000Z',
        points: 1,
        offline: false,
        creditedMs: 100_000,
        source: 'core-playlist',
        toyConnected: true,
      },
    ]);
    expect(data.listeningDays).toEqual([{ day: '2026-06-01', listenedMs: 100_000 }]);
    expect(data.profile.settings.insightsOptOut).toBe(false);
  });

  it('an opted-out listener still sees their own listening', async () => {
    const body = (await get('/api/insights/listening', optedOut.token)).json();
    expect(body.insightsOptOut).toBe(true);
    expect(body.days).toEqual([{ day: '2026-06-01', minutes: 1 }]);
  });
});

describe('site dashboard', () => {
  it('is for administrators only', async () => {
    expect((await get('/api/insights/site')).statusCode).toBe(401);
    expect((await get('/api/insights/site', moderator.token)).statusCode).toBe(403);
    expect((await get('/api/insights/site', creator.token)).statusCode).toBe(403);
  });

  it('counts active listeners, sign-ups and uploads per day', async () => {
    const res = await get('/api/insights/site?period=7', admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const today = body.series.find((d: { day: string }) => d.day === '2026-06-01');
    // Six listeners plus five patrons heard a minute or more today: 11 today, 11 / 7 days on average.
    expect(today.activeListeners).toBe(11);
    expect(body.totals.activeListeners).toEqual({ current: 2, previous: 0 });
    expect(body.series).toHaveLength(7);
    // Kept per day as listener days are first added, not counted per view: a listener and a patron
    // ended two sessions each today and count once.
    expect(await db.select().from(insightsSiteDays)).toEqual([{ day: '2026-06-01', activeListeners: 11 }]);
    // By week: the average over the week's days in the period (Tuesday 26 May to Monday 1 June).
    const weeks = (await get('/api/insights/site?period=7&bucket=week', admin.token)).json();
    expect(
      weeks.series.map((w: { day: string; activeListeners: number }) => [w.day, w.activeListeners]),
    ).toEqual([
      ['2026-05-25', 0],
      ['2026-06-01', 11],
    ]);
    expect(body.totals.uploads.current).toBe(
      body.series.reduce((n: number, d: { uploads: number }) => n + d.uploads, 0),
    );
    expect(body.fileCount).toBe(3);
    expect(body.openReports).toBe(0);
    expect(body.errors).toBe(0);
  });
});

describe('offline plays', () => {
  it("count as 'offline', heard from the start for the retention curve", async () => {
    const kept = await createAudioFile(app, { authorId: creator.id, duration: 100 * SECOND });
    const base = clock.now().getTime();
    for (let i = 0; i < 5; i++) {
      const patron = await createSignedInUser(app);
      const copy = await app.inject({
        method: 'GET',
        url: `${kept.audioUrl()}&offline=1`,
        headers: authHeader(patron.token),
      });
      expect(copy.statusCode).toBe(200);
      clock.set(new Date(base + 10 * 60_000).toISOString());
      const sent = await app.inject({
        method: 'POST',
        url: '/api/session/offline',
        headers: authHeader(patron.token),
        payload: {
          sessions: [
            {
              fileId: kept.id,
              startedAt: new Date(base + 60_000).toISOString(),
              endedAt: new Date(base + 180_000).toISOString(),
              listenedMs: 60_000,
            },
          ],
        },
      });
      expect(sent.json().sessions[0].status).toBe('credited');
      clock.set(new Date(base).toISOString());
    }
    const body = (await get(`/api/insights/files/${kept.id}?period=7`, creator.token)).json();
    expect(body.plays).toEqual({ current: 5, previous: 0 });
    expect(body.audience.sources).toEqual([{ source: 'offline', plays: 5 }]);
    expect(body.audience.listeningMs.current).toBe(5 * 60_000);
    expect(body.retention[59]).toBe(1);
    expect(body.retention[60]).toBe(0);
  });
});

describe('storage used', () => {
  it('is the bytes of the stored audio: uploads count at once, older files once measured', async () => {
    const storageBytes = async () => (await get('/api/insights/site', admin.token)).json().storageBytes;
    // The four files of this test were stored without the upload route: no size is known yet.
    expect(await storageBytes()).toBe(0);

    const short = fs.readFileSync(await sineFile('wav', 1));
    const long = fs.readFileSync(await sineFile('wav', 2));
    const { id: shortId } = await uploadAndPublish(app, creator.token, short, 'Short');
    const { id: longId } = await uploadAndPublish(app, creator.token, long, 'Long');
    const sizes = await db
      .select({ id: files.id, audioSize: files.audioSize })
      .from(files)
      .where(inArray(files.id, [shortId, longId]))
      .orderBy(files.id);
    expect(sizes).toEqual([
      { id: shortId, audioSize: short.length },
      { id: longId, audioSize: long.length },
    ]);
    expect(await storageBytes()).toBe(short.length + long.length);

    // `admin analyse --sizes-only` measures the others (100 s at one byte per 100 ms: 1,000 bytes each).
    const measured = await analyseStoredAudio(app.ctx, { log: () => undefined, sizesOnly: true });
    expect(measured).toEqual({ analysed: 0, measured: 4, failed: [] });
    expect(await storageBytes()).toBe(short.length + long.length + 4 * 1000);
  });
});
