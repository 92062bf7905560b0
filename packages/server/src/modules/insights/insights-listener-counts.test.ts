import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../db/client.ts';
import { files, insightsPreviousListeners } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';
import { rollUpSession } from './insights-rollups.ts';

/**
 * The distinct listeners kept as plays end (docs/decisions/053): per day, per ISO week, the keys' last
 * days and the kept previous-period figure, held against counting distinct keys over the day rows.
 */

const { app, clock } = await createTestApp();
const db = app.ctx.db;
await createUser(db); // id 1, the site owner
const creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
const fileA = await createFile(db, { authorId: creator.id, duration: 100_000 });
const fileB = await createFile(db, { authorId: creator.id, duration: 100_000 });
let sessionId = 0;

/** A counted play of `file` by `listener` (a listener string of the play rule) ending at `at`. */
async function play(listener: string, fileId: number, at: string, { optedOut = false } = {}) {
  await withTransaction(db, (tx) =>
    rollUpSession(tx, {
      sessionId: ++sessionId,
      fileId,
      endedAt: new Date(at),
      userId: null,
      listener,
      play: true,
      heardMs: 60_000,
      durationMs: 100_000,
      served: null,
      source: 'file-page',
      toyConnected: null,
      supporterTierId: null,
      creditedMs: 0,
      timezone: null,
      optedOut,
    }),
  );
}

async function insights(url: string) {
  const res = await app.inject({ method: 'GET', url, headers: authHeader(creator.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Distinct listener keys of a scope from `from` to `to`, counted over the day rows (the oracle). */
async function distinctOverDays(scope: 'file' | 'creator', id: number, from: string, to: string) {
  const table = scope === 'file' ? sql`insights_file_listeners` : sql`insights_creator_listeners`;
  const column = scope === 'file' ? sql`file_id` : sql`creator_id`;
  const { rows } = (await db.execute(
    sql`select count(distinct listener_key)::int as n from ${table}
        where ${column} = ${id} and day between ${from}::date and ${to}::date`,
  )) as unknown as { rows: { n: number }[] };
  return Number(rows[0].n);
}

/** The last-day counts kept by the triggers, and the same counted over the last-day rows (the oracle). */
async function lastDayCounts() {
  const { rows } = (await db.execute(
    sql`select scope, scope_id as id, last_day::text as day, keys as n from insights_listener_last_day_counts
        where keys <> 0
        union all
        select 'oracle file', file_id, last_day::text, count(*)::int from insights_file_listener_last_days
        group by file_id, last_day
        union all
        select 'oracle creator', creator_id, last_day::text, count(*)::int from insights_creator_listener_last_days
        group by creator_id, last_day`,
  )) as unknown as { rows: { scope: string; id: number; day: string; n: number }[] };
  const of = (scope: string) =>
    rows
      .filter((r) => r.scope === scope)
      .map((r) => `${r.id} ${r.day} ${Number(r.n)}`)
      .sort();
  return {
    file: of('file'),
    creator: of('creator'),
    oracleFile: of('oracle file'),
    oracleCreator: of('oracle creator'),
  };
}

describe('distinct listeners kept as plays end', () => {
  it('counts a listener once per day and per week, across week boundaries, and late plays exactly', async () => {
    // 2026-06-01 is a Monday. "a" plays file A on five days of two weeks; "b" both files on Tuesday.
    await play('user:a', fileA.id, '2026-06-01T08:00:00Z');
    await play('user:a', fileA.id, '2026-06-01T20:00:00Z');
    await play('user:a', fileA.id, '2026-06-03T08:00:00Z');
    await play('user:a', fileA.id, '2026-06-07T23:59:00Z');
    await play('user:a', fileA.id, '2026-06-08T00:01:00Z');
    await play('user:b', fileA.id, '2026-06-02T08:00:00Z');
    await play('user:b', fileB.id, '2026-06-02T09:00:00Z');
    // "c" plays on Thursday, then a play that ended on Monday arrives late (an offline copy's).
    await play('user:c', fileA.id, '2026-06-04T08:00:00Z');
    await play('user:c', fileA.id, '2026-06-01T10:00:00Z');
    // An opted-out listener adds nothing.
    await play('user:o', fileA.id, '2026-06-01T09:00:00Z', { optedOut: true });

    const { rows } = (await db.execute(
      sql`select day::text as day, listeners, week_listeners as "weekListeners"
          from insights_file_day_listeners where file_id = ${fileA.id} order by day`,
    )) as unknown as { rows: { day: string; listeners: number; weekListeners: number }[] };
    expect(
      rows.map((r) => ({ ...r, listeners: Number(r.listeners), weekListeners: Number(r.weekListeners) })),
    ).toEqual([
      { day: '2026-06-01', listeners: 2, weekListeners: 1 },
      { day: '2026-06-02', listeners: 1, weekListeners: 1 },
      { day: '2026-06-03', listeners: 1, weekListeners: 0 },
      { day: '2026-06-04', listeners: 1, weekListeners: 1 },
      { day: '2026-06-07', listeners: 1, weekListeners: 0 },
      { day: '2026-06-08', listeners: 1, weekListeners: 1 },
    ]);

    // Three listeners, one of them on five days: withheld (fewer than 5 distinct), whatever the buckets add up to.
    clock.set('2026-06-10T12:00:00Z');
    const file = await insights(`/api/insights/files/${fileA.id}?period=28&bucket=week`);
    expect(file.plays.current).toBe(8);
    expect(file.audience).toEqual({ withheld: true, minListeners: 5 });
  });

  it('shows week and day series equal to distinct counts over the days, first cut week included', async () => {
    for (const name of ['d', 'e', 'f']) await play(`user:${name}`, fileA.id, '2026-06-05T08:00:00Z');
    await play('user:e', fileB.id, '2026-06-09T08:00:00Z');
    await play('user:g', fileB.id, '2026-06-06T08:00:00Z');
    clock.set('2026-06-10T12:00:00Z');
    for (const [scope, id, url] of [
      ['file', fileA.id, `/api/insights/files/${fileA.id}`],
      ['creator', creator.id, `/api/insights/creators/${creator.id}`],
    ] as const) {
      for (const query of ['period=7&bucket=day', 'period=7&bucket=week', 'period=28&bucket=week']) {
        const body = await insights(`${url}?${query}`);
        expect(body.audience.withheld, `${scope} ${query}`).toBe(false);
        const { from, to } = body.period;
        expect(body.audience.listeners.current).toBe(await distinctOverDays(scope, id, from, to));
        for (const point of body.audience.series as { start: string; listeners: number }[]) {
          const end = query.includes('week') ? addDay(point.start, 6) : point.start;
          const expected = await distinctOverDays(
            scope,
            id,
            [point.start, from].sort()[1], // the later day
            [end, to].sort()[0], // the earlier day
          );
          expect(point.listeners, `${scope} ${query} ${point.start}`).toBe(expected);
        }
      }
    }
    // Period 7 from 2026-06-04 (a Thursday): its first week is cut; a, c, d, e, f on file A.
    const week = await insights(`/api/insights/files/${fileA.id}?period=7&bucket=week`);
    expect(week.audience.series).toEqual([
      { start: '2026-06-01', plays: 5, listeners: 5, previousPlays: 0, previousListeners: null },
      // The previous period's 06-01 to 06-03 (3 + 1 + 1 plays) moved 7 days on: 06-08 to 06-10.
      { start: '2026-06-08', plays: 1, listeners: 1, previousPlays: 5, previousListeners: null },
    ]);
    // The catalogue counts "b" (both files on one day) and "e" (both files, two days) once each.
    const catalogue = await insights(`/api/insights/creators/${creator.id}?period=28&bucket=week`);
    expect(catalogue.audience.listeners.current).toBe(7);
    expect(catalogue.audience.series.filter((p: { listeners: number }) => p.listeners > 0)).toEqual([
      { start: '2026-06-01', plays: 12, listeners: 7, previousPlays: 0, previousListeners: null },
      { start: '2026-06-08', plays: 2, listeners: 2, previousPlays: 0, previousListeners: null },
    ]);
    // Period 28 from 2026-05-14 (a Thursday): the first point's listeners are kept for the day with
    // the previous period's, and read from there by the next call.
    const firstPoint = (body: { audience: { series: { listeners: number }[] } }) =>
      body.audience.series[0].listeners;
    const kept = (await db.select().from(insightsPreviousListeners)).find(
      (k) => k.scope === 'creator' && k.period === 28 && k.day === '2026-06-10',
    );
    expect(kept?.cutWeekListeners).toBe(firstPoint(catalogue));
    await db
      .update(insightsPreviousListeners)
      .set({ cutWeekListeners: 99 })
      .where(eq(insightsPreviousListeners.period, 28));
    const again = await insights(`/api/insights/creators/${creator.id}?period=28&bucket=week`);
    expect(firstPoint(again)).toBe(99);
  });

  it('keeps the previous period once a day, and a late play in it drops the kept figure', async () => {
    clock.set('2026-06-14T12:00:00Z'); // period 7: 06-08 to 06-14; previous 06-01 to 06-07
    const before = await insights(`/api/insights/creators/${creator.id}?period=7`);
    expect(before.audience).toEqual({ withheld: true, minListeners: 5 });
    const keptOn = async (day: string) =>
      (await db.select().from(insightsPreviousListeners)).filter((k) => k.day === day);
    // A withheld audience counts no previous period.
    expect(await keptOn('2026-06-14')).toEqual([]);
    // Five listeners this week make the audience shown, with the previous period counted and kept.
    for (const name of ['h', 'i', 'j']) await play(`user:${name}`, fileB.id, '2026-06-12T08:00:00Z');
    const now = await insights(`/api/insights/creators/${creator.id}?period=7`);
    expect(now.audience.listeners).toEqual({ current: 5, previous: 7 });
    expect(await keptOn('2026-06-14')).toEqual([
      // 06-08 is a Monday: no week cut by the period's start.
      {
        scope: 'creator',
        scopeId: creator.id,
        period: 7,
        day: '2026-06-14',
        listeners: 7,
        cutWeekListeners: null,
        previousWeekListeners: [7],
      },
    ]);
    // A late play on 06-03 by a new listener: counted in the previous period at once.
    await play('user:k', fileA.id, '2026-06-03T08:00:00Z');
    const after = await insights(`/api/insights/creators/${creator.id}?period=7`);
    expect(after.audience.listeners).toEqual({ current: 5, previous: 8 });

    // The last-day counts the period's listeners are summed from equal a count over the keys'
    // last days: keys moved on by later plays, a late play that moved none.
    const counts = await lastDayCounts();
    expect(counts.file).toEqual(counts.oracleFile);
    expect(counts.creator).toEqual(counts.oracleCreator);
    expect(counts.creator).toContain(`${creator.id} 2026-06-12 3`); // "h", "i", "j"

    // The previous period drawn beside this one: each of its days in the bucket 7 days later.
    const series = (body: {
      audience: { series: { start: string; plays: number; previousPlays: number }[] };
    }) => body.audience.series.map((p) => [p.start, p.plays, p.previousPlays]);
    expect(series(after)).toEqual([
      ['2026-06-08', 1, 3], // 06-01: "a" twice and "c" late ("o" opted out)
      ['2026-06-09', 1, 2], // 06-02: "b" on both files
      ['2026-06-10', 0, 2], // 06-03: "a" and "k" late
      ['2026-06-11', 0, 1],
      ['2026-06-12', 3, 3], // 06-05: "d", "e", "f"
      ['2026-06-13', 0, 1],
      ['2026-06-14', 0, 1], // 06-07 23:59
    ]);
    expect(after.plays).toEqual({ current: 5, previous: 13 });
    const weeks = await insights(`/api/insights/creators/${creator.id}?period=7&bucket=week`);
    expect(series(weeks)).toEqual([['2026-06-08', 5, 13]]);
    // The previous period's listeners beside each point: distinct over the same days moved back.
    for (const [body, days] of [
      [after, 1],
      [weeks, 7],
    ] as const) {
      for (const point of body.audience.series as { start: string; previousListeners: number }[]) {
        const expected = await distinctOverDays(
          'creator',
          creator.id,
          addDay(point.start, -7),
          addDay(point.start, days - 8),
        );
        expect(point.previousListeners, `${days} ${point.start}`).toBe(expected);
      }
    }
    expect(weeks.audience.series[0].previousListeners).toBe(8);
  });
});

describe("what is kept for a period's ended days", () => {
  /** Plays of a file from `from` to `to`, summed over its day rows (the oracle). */
  async function playsOverDays(fileId: number, from: string, to: string) {
    const { rows } = (await db.execute(
      sql`select coalesce(sum(plays), 0)::int as n from insights_file_days
          where file_id = ${fileId} and day between ${from}::date and ${to}::date`,
    )) as unknown as { rows: { n: number }[] };
    return Number(rows[0].n);
  }
  async function expectedTop(period: { from: string; to: string; previousFrom: string; previousTo: string }) {
    const top = [];
    for (const file of [fileA, fileB]) {
      const plays = await playsOverDays(file.id, period.from, period.to);
      const previousPlays = await playsOverDays(file.id, period.previousFrom, period.previousTo);
      if (plays > 0) top.push({ id: file.id, uuid: file.uuid, name: file.name, plays, previousPlays });
    }
    return top.sort((a, b) => b.plays - a.plays || a.id - b.id);
  }
  const keptDays = async () =>
    (
      (await db.execute(
        sql`select period, day::text as day from insights_kept_file_plays where creator_id = ${creator.id}
            order by period`,
      )) as unknown as { rows: { period: number; day: string }[] }
    ).rows.map((r) => `${Number(r.period)} ${r.day}`);

  it("add the last day's plays to those kept for the ended days, and a late play drops them", async () => {
    // The tests above viewed later days: the clock goes back here, as it never does.
    await db.execute(sql`delete from insights_kept_file_plays`);
    clock.set('2026-06-09T12:00:00Z');
    const url = `/api/insights/creators/${creator.id}?period=28`;
    const first = await insights(url);
    expect(first.topFiles).toEqual(await expectedTop(first.period));
    expect(first.topFiles.map((f: { plays: number }) => f.plays)).toEqual([12, 3]);
    expect(await keptDays()).toEqual(['28 2026-06-09']);
    // Today's plays are read live beside the kept ones.
    await play('user:t', fileB.id, '2026-06-09T09:00:00Z');
    await play('user:u', fileB.id, '2026-06-09T10:00:00Z');
    const later = await insights(url);
    expect(later.topFiles).toEqual(await expectedTop(later.period));
    expect(later.topFiles.map((f: { plays: number }) => f.plays)).toEqual([12, 5]);
    // An offline play that ended on an earlier day drops what was kept from that day on.
    await play('user:v', fileB.id, '2026-06-05T09:00:00Z');
    expect(await keptDays()).toEqual([]);
    const after = await insights(url);
    expect(after.topFiles).toEqual(await expectedTop(after.period));
    expect(after.topFiles.map((f: { plays: number }) => f.plays)).toEqual([12, 6]);
    // The next day keeps its own, the day before's go.
    clock.set('2026-06-10T12:00:00Z');
    const next = await insights(`/api/insights/creators/${creator.id}?period=7`);
    expect(next.topFiles).toEqual(await expectedTop(next.period));
    expect(await keptDays()).toEqual(['7 2026-06-10']);
  });

  /** A file's retention share per part over `from`–`to`, summed over its day rows (the oracle). */
  async function retentionOverDays(fileId: number, from: string, to: string) {
    const { rows } = (await db.execute(
      sql`select plays, retention from insights_file_days
          where file_id = ${fileId} and day between ${from}::date and ${to}::date`,
    )) as unknown as { rows: { plays: number; retention: number[] }[] };
    const plays = rows.reduce((n, r) => n + Number(r.plays), 0);
    return Array.from(
      { length: 100 },
      (_, i) => rows.reduce((n, r) => n + Number(r.retention[i]), 0) / plays,
    );
  }
  const keptRetention = async () =>
    (
      (await db.execute(
        sql`select period, day::text as day from insights_kept_retention where file_id = ${fileB.id}`,
      )) as unknown as { rows: { period: number; day: string }[] }
    ).rows.map((r) => `${Number(r.period)} ${r.day}`);

  it("a file's retention adds the last day's row to the sums kept for the ended days", async () => {
    await db.execute(sql`delete from insights_kept_retention`);
    clock.set('2026-06-09T12:00:00Z');
    const url = `/api/insights/files/${fileB.id}?period=28`;
    const first = await insights(url);
    expect(first.retention).toEqual(await retentionOverDays(fileB.id, first.period.from, first.period.to));
    expect(await keptRetention()).toEqual(['28 2026-06-09']);
    // A play today that heard the whole track: the last parts' share rises, read live.
    await withTransaction(db, (tx) =>
      rollUpSession(tx, {
        sessionId: ++sessionId,
        fileId: fileB.id,
        endedAt: new Date('2026-06-09T11:00:00Z'),
        userId: null,
        listener: 'user:w',
        play: true,
        heardMs: 100_000,
        durationMs: 100_000,
        served: { ranges: [[0, 999]], audioSize: 1000 },
        source: 'file-page',
        toyConnected: null,
        supporterTierId: null,
        creditedMs: 0,
        timezone: null,
        optedOut: false,
      }),
    );
    const later = await insights(url);
    expect(later.retention).toEqual(await retentionOverDays(fileB.id, later.period.from, later.period.to));
    expect(later.retention[99]).toBeGreaterThan(first.retention[99]);
    // An offline play that ended on an earlier day drops the kept sums.
    await play('user:x', fileB.id, '2026-06-04T09:00:00Z');
    expect(await keptRetention()).toEqual([]);
    const after = await insights(url);
    expect(after.retention).toEqual(await retentionOverDays(fileB.id, after.period.from, after.period.to));
  });
  it("go with the file's deletion", async () => {
    const gone = await createFile(db, { authorId: creator.id, duration: 100_000 });
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5'])
      await play(`user:${name}`, gone.id, '2026-06-09T08:00:00Z');
    clock.set('2026-06-10T12:00:00Z');
    expect((await insights(`/api/insights/files/${gone.id}?period=7`)).audience.withheld).toBe(false);
    const keptFor = async () =>
      (
        (await db.execute(
          sql`select count(*)::int as n from insights_kept_retention where file_id = ${gone.id}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0].n;
    expect(Number(await keptFor())).toBe(1);
    await db.delete(files).where(eq(files.id, gone.id));
    expect(Number(await keptFor())).toBe(0);
  });
});

function addDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe('last-day counts', () => {
  it("follow a file's deletion", async () => {
    const gone = await createFile(db, { authorId: creator.id, duration: 100_000 });
    await play('user:z', gone.id, '2026-06-13T08:00:00Z');
    await play('user:y', gone.id, '2026-06-13T09:00:00Z');
    expect((await lastDayCounts()).file).toContain(`${gone.id} 2026-06-13 2`);
    await db.delete(files).where(eq(files.id, gone.id));
    const counts = await lastDayCounts();
    expect(counts.file).toEqual(counts.oracleFile);
    expect(counts.file.filter((c) => c.startsWith(`${gone.id} `))).toEqual([]);
    // The creator's keys stay: "z" and "y" played one of their files that day.
    expect(counts.creator).toEqual(counts.oracleCreator);
  });
});
