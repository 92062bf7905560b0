import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { files, insightsSiteEventDays, messages, reports, threads, users } from '../../db/schema/index.ts';
import { authHeader, createSignedInUser, createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';

/**
 * The site dashboard's event counts (docs/decisions/054): past days are counted once and kept in
 * insights_site_event_days, today is counted live.
 */

const { app, clock } = await createTestApp();
const db = app.ctx.db;
await createUser(db); // id 1, the site owner
const admin = await createSignedInUser(app, { roles: ['Administrator'] });
const creator = await createUser(db, { roles: ['Verified Creator'] });
clock.set('2026-06-10T12:00:00Z');

/** A user who signed up at `at`. */
async function signUpAt(at: string) {
  const user = await createUser(db);
  await db
    .update(users)
    .set({ createdAt: new Date(at) })
    .where(eq(users.id, user.id));
  return user;
}

async function uploadAt(at: string) {
  const file = await createFile(db, { authorId: creator.id });
  await db
    .update(files)
    .set({ createdAt: new Date(at) })
    .where(eq(files.id, file.id));
}

const [thread] = await db.insert(threads).values({ name: 'Site' }).returning({ id: threads.id });
async function messageAt(at: string) {
  await db
    .insert(messages)
    .values({ threadId: thread.id, senderId: creator.id, message: 'hi', createdAt: new Date(at) });
}

async function reportAt(at: string, resolvedAt?: string) {
  await db.insert(reports).values({
    reporterId: creator.id,
    subjectType: 'user',
    subjectId: creator.id,
    createdAt: new Date(at),
    ...(resolvedAt && { resolution: 'dismissed', resolvedBy: admin.id, resolvedAt: new Date(resolvedAt) }),
  });
}

async function site(period = 7) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/insights/site?period=${period}`,
    headers: authHeader(admin.token),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const day = (body: { series: { day: string }[] }, d: string) => {
  const { activeListeners: _, ...counts } = body.series.find((s) => s.day === d) as Record<string, number> & {
    day: string;
  };
  return counts;
};

// Events around the 7-day period 4-10 June (the previous period: 28 May - 3 June), at day edges.
await signUpAt('2026-06-09T00:00:00Z');
await signUpAt('2026-06-09T23:59:59Z');
await signUpAt('2026-06-10T08:00:00Z');
await signUpAt('2026-06-01T10:00:00Z'); // previous period
await signUpAt('2026-05-20T10:00:00Z'); // before both
await uploadAt('2026-06-04T00:00:01Z');
await uploadAt('2026-06-10T01:00:00Z');
await messageAt('2026-06-09T12:00:00Z');
await messageAt('2026-06-09T13:00:00Z');
await messageAt('2026-06-02T13:00:00Z');
await reportAt('2026-06-08T10:00:00Z', '2026-06-09T10:00:00Z');
await reportAt('2026-06-10T10:00:00Z');

/** 9 June as counted: two sign-ups at its edges, two messages, a report closed. */
const JUNE_9 = { day: '2026-06-09', signUps: 2, uploads: 0, messages: 2, reportsOpened: 0, reportsClosed: 1 };

describe('site dashboard events', () => {
  it('counts each kind per UTC day, in the period and the previous one', async () => {
    const body = await site();
    expect(day(body, '2026-06-09')).toEqual(JUNE_9);
    expect(day(body, '2026-06-10')).toEqual({
      day: '2026-06-10',
      signUps: 1,
      uploads: 1,
      messages: 0,
      reportsOpened: 1,
      reportsClosed: 0,
    });
    expect(day(body, '2026-06-04')).toMatchObject({ uploads: 1, signUps: 0 });
    expect(body.totals.signUps).toEqual({ current: 3, previous: 1 });
    expect(body.totals.uploads).toEqual({ current: 2, previous: 0 });
    expect(body.totals.messages).toEqual({ current: 2, previous: 1 });
    expect(body.totals.reportsOpened).toEqual({ current: 2, previous: 0 });
    expect(body.totals.reportsClosed).toEqual({ current: 1, previous: 0 });
  });

  it('keeps every past day of both periods once counted, zeros included, and not today', async () => {
    const kept = await db.select().from(insightsSiteEventDays).orderBy(insightsSiteEventDays.day);
    // 28 May to 9 June: thirteen days, today (10 June) not among them.
    expect(kept.map((k) => k.day)).toEqual(
      Array.from({ length: 13 }, (_, i) => new Date(Date.UTC(2026, 4, 28 + i)).toISOString().slice(0, 10)),
    );
    expect(kept.find((k) => k.day === '2026-06-09')).toEqual(JUNE_9);
    expect(kept.find((k) => k.day === '2026-06-05')).toMatchObject({ signUps: 0, messages: 0 });
  });

  it('reads a kept day as kept (a late back-dated row does not change it) and today live', async () => {
    await signUpAt('2026-06-09T15:00:00Z');
    await signUpAt('2026-06-10T15:00:00Z');
    const body = await site();
    expect(day(body, '2026-06-09').signUps).toBe(2);
    expect(day(body, '2026-06-10').signUps).toBe(2);
    expect(body.totals.signUps).toEqual({ current: 4, previous: 1 });
  });

  it('keeps the day that ended once the clock passes midnight, and a longer period fills its days', async () => {
    clock.set('2026-06-11T00:30:00Z');
    const body = await site();
    expect(day(body, '2026-06-10')).toMatchObject({ signUps: 2, uploads: 1, reportsOpened: 1 });
    const [kept] = await db
      .select()
      .from(insightsSiteEventDays)
      .where(eq(insightsSiteEventDays.day, '2026-06-10'));
    expect(kept).toEqual({
      day: '2026-06-10',
      signUps: 2,
      uploads: 1,
      messages: 0,
      reportsOpened: 1,
      reportsClosed: 0,
    });

    const month = await site(28);
    // 20 May, 1 June, 9 June (kept: 2), 10 June (2).
    expect(month.totals.signUps).toEqual({ current: 6, previous: 0 });
    // 15 May - 11 June and the 28 days before: 17 April to 10 June kept, today (11 June) live.
    expect(await db.$count(insightsSiteEventDays)).toBe(55);
  });
});
