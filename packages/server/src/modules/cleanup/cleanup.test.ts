import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authSessions, emailTokens, listeningSessions } from '../../db/schema/index.ts';
import { createUser } from '../../test/factories.ts';
import { createTestApp, testDbKind } from '../../test/harness.ts';
import { createCleanupRepo } from './cleanup.repo.ts';
import { CLEANUP_INTERVAL_MS, startCleanup } from './cleanup.service.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const { cleanup } = app.services;
const user = await createUser(db);
const HOUR = 3600_000;
const hash = (name: string) => createHash('sha256').update(name).digest('hex');
const at = (hoursFromNow: number) => new Date(clock.now().getTime() + hoursFromNow * HOUR);

/** A signed-in session ended `daysAgo` days ago with the raw detail insights keep for a while. */
function sessionWithDetail(name: string, daysAgo: number, extra: { supporterTierId?: string } = {}) {
  return {
    tokenHash: hash(name),
    userId: user.id,
    startedAt: at(-daysAgo * 24 - 1),
    endedAt: at(-daysAgo * 24),
    creditedMs: 60_000,
    audioSize: 600,
    servedRanges: [[0, 299]] as [number, number][],
    source: 'file-page',
    toyConnected: true,
    ...extra,
  };
}

async function seed() {
  await db.delete(authSessions);
  await db.delete(emailTokens);
  await db.delete(listeningSessions);
  await db.insert(authSessions).values([
    { tokenHash: hash('expired'), userId: user.id, expiresAt: at(-1) },
    { tokenHash: hash('expires-now'), userId: user.id, expiresAt: at(0) },
    { tokenHash: hash('live'), userId: user.id, expiresAt: at(1) },
  ]);
  await db.insert(emailTokens).values([
    { tokenHash: hash('used'), userId: user.id, purpose: 'verify', expiresAt: at(40), usedAt: at(-1) },
    { tokenHash: hash('lapsed'), userId: user.id, purpose: 'reset', expiresAt: at(-1) },
    { tokenHash: hash('open'), userId: user.id, purpose: 'reset', expiresAt: at(1) },
  ]);
  await db.insert(listeningSessions).values([
    { tokenHash: hash('abandoned'), userId: null, startedAt: at(-25) },
    { tokenHash: hash('abandoned-user'), userId: user.id, startedAt: at(-25) },
    { tokenHash: hash('playing'), userId: user.id, startedAt: at(-23) },
    { tokenHash: hash('ended-old'), userId: null, startedAt: at(-30), endedAt: at(-29) },
    { tokenHash: hash('ended-recent'), userId: null, startedAt: at(-2), endedAt: at(-1) },
    {
      tokenHash: hash('credited-old'),
      userId: user.id,
      startedAt: at(-30),
      endedAt: at(-29),
      points: 5,
      creditedMs: 300_000,
    },
    // Insights' raw detail: kept RAW_SESSION_RETENTION_DAYS (90) days after the end, then cleared.
    sessionWithDetail('detail-expired', 91, { supporterTierId: 'tier-1' }),
    sessionWithDetail('detail-kept', 89),
  ]);
}

const names = (rows: { tokenHash: string }[], all: string[]) =>
  all.filter((name) => rows.some((r) => r.tokenHash === hash(name)));

async function remaining() {
  return {
    sessions: names(await db.select().from(authSessions), ['expired', 'expires-now', 'live']),
    emailTokens: names(await db.select().from(emailTokens), ['used', 'lapsed', 'open']),
    listening: names(await db.select().from(listeningSessions), [
      'abandoned',
      'abandoned-user',
      'playing',
      'ended-old',
      'ended-recent',
      'credited-old',
      'detail-expired',
      'detail-kept',
    ]),
  };
}

const kept = {
  sessions: ['live'],
  emailTokens: ['open'],
  listening: ['playing', 'ended-recent', 'credited-old', 'detail-expired', 'detail-kept'],
};

async function detailOf(name: string) {
  const rows = await db.select().from(listeningSessions);
  const row = rows.find((r) => r.tokenHash === hash(name));
  return row && pick(row);
}
const pick = (r: typeof listeningSessions.$inferSelect) => ({
  audioSize: r.audioSize,
  servedRanges: r.servedRanges,
  source: r.source,
  toyConnected: r.toyConnected,
  supporterTierId: r.supporterTierId,
  creditedMs: r.creditedMs,
});

beforeEach(async () => {
  clock.set('2026-06-01T12:00:00Z');
  await seed();
});

describe('clean-up', () => {
  it('deletes exactly the expired and spent rows and keeps live ones', async () => {
    expect(await cleanup.run()).toEqual({
      sessions: 2,
      emailTokens: 2,
      listeningSessions: 3,
      listeningDetail: 1,
      uploads: 0,
    });
    expect(await remaining()).toEqual(kept);
    expect(await cleanup.run()).toEqual({
      sessions: 0,
      emailTokens: 0,
      listeningSessions: 0,
      listeningDetail: 0,
      uploads: 0,
    });
  });

  it('clears the raw insight detail of sessions ended over 90 days ago and keeps what they credited', async () => {
    await cleanup.run();
    expect(await detailOf('detail-expired')).toEqual({
      audioSize: 600,
      servedRanges: [],
      source: null,
      toyConnected: null,
      supporterTierId: null,
      creditedMs: 60_000,
    });
    expect(await detailOf('detail-kept')).toEqual({
      audioSize: 600,
      servedRanges: [[0, 299]],
      source: 'file-page',
      toyConnected: true,
      supporterTierId: null,
      creditedMs: 60_000,
    });
  });

  it.runIf(testDbKind === 'postgres')(
    'skips a run while another process holds the clean-up lock',
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = db.transaction(async (tx) => {
        expect(await createCleanupRepo(tx).tryLock()).toBe(true);
        locked();
        await released;
      });
      await lockTaken;
      expect(await cleanup.run()).toBeNull();
      release();
      await holder;
      expect((await remaining()).sessions).toEqual(['expired', 'expires-now', 'live']);
    },
  );

  describe('timer', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('runs every CLEANUP_INTERVAL_MS until stopped', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const stop = startCleanup(cleanup, app.log);
      vi.advanceTimersByTime(CLEANUP_INTERVAL_MS - 1);
      expect((await remaining()).sessions).toHaveLength(3);
      vi.advanceTimersByTime(1);
      await vi.waitFor(async () => expect(await remaining()).toEqual(kept));
      stop();
      await seed();
      vi.advanceTimersByTime(2 * CLEANUP_INTERVAL_MS);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await remaining()).sessions).toHaveLength(3);
    });
  });
});
