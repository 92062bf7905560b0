import {
  addDays,
  COMPLETION_SHARE,
  heardParts,
  heardPartsFromStart,
  RETENTION_BINS,
  UNKNOWN_SOURCE,
  utcDay,
  weekStart,
} from '@mesmer/shared/domain/insights';
import { localDay } from '@mesmer/shared/domain/streak';
import { type Db, withTransaction } from '../../db/client.ts';
import { hashToken } from '../../platform/tokens.ts';
import { servedBytes } from '../listening/index.ts';
import { createInsightsRollupsRepo } from './insights-rollups.repo.ts';

/** One ended listening session, as the listening module judged it: what insights roll up from it. */
export interface EndedSession {
  sessionId: number;
  fileId: number;
  endedAt: Date;
  /** The signed-in listener, or null for an anonymous one. */
  userId: number | null;
  /** Who a play is counted for (`user:<id>` or `ip:<hash>`, the listening module's play rule). */
  listener: string;
  /** Whether this session's play of the file was counted. */
  play: boolean;
  /** Milliseconds of the track heard (heardMs), and the track's duration. */
  heardMs: number;
  durationMs: number;
  /**
   * The audio served under it (online) or null for an offline copy's play, which heard the track
   * from its start.
   */
  served: { ranges: readonly (readonly [number, number])[]; audioSize: number } | null;
  /** False when the parts heard are no longer known (a rebuild from cleared raw detail): no retention. */
  partsKnown?: boolean;
  source: string | null;
  toyConnected: boolean | null;
  /** For tier-locked files the tier the listener held ('' none); null when not locked; undefined: look it up. */
  supporterTierId?: string | null;
  /** Listening time credited to the signed-in listener, and their time zone (for their own day). */
  creditedMs: number;
  timezone: string | null;
  /** Whether the listener opted out of insights; undefined: look it up. */
  optedOut?: boolean;
}

/** The pseudonymous key a listener is counted under in the distinct-listener rollups. */
export function listenerKey(listener: string): string {
  return hashToken(`insights:${listener}`).slice(0, 32);
}

/** The retention counts a play adds: 1 for each part it heard. */
export function retentionOf(session: Pick<EndedSession, 'served' | 'heardMs' | 'durationMs'>): number[] {
  const parts = session.served
    ? heardParts(session.served.ranges, session.served.audioSize)
    : heardPartsFromStart(session.durationMs > 0 ? session.heardMs / session.durationMs : 0);
  return parts.map((heard) => (heard ? 1 : 0));
}

/** The seven days of the ISO week (Monday first) holding `day`. */
function weekDays(day: string): string[] {
  const monday = weekStart(day);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const NO_RETENTION: readonly number[] = Array.from({ length: RETENTION_BINS }, () => 0);

/**
 * Adds one ended session to the rollups, inside the end's transaction `tx`. A session adds to its
 * file's day only when it heard something, and only for listeners who did not opt out; the listener's
 * own days and files (their "Your listening") always. A handful of single-row upserts.
 */
export async function rollUpSession(tx: Db, s: EndedSession): Promise<void> {
  const repo = createInsightsRollupsRepo(tx);
  const tier =
    s.supporterTierId !== undefined ? s.supporterTierId : await repo.supporterTier(s.userId, s.fileId);
  // Live ends keep what they learnt on the session (a rebuild passes what the session holds).
  if (s.supporterTierId === undefined && (s.toyConnected !== null || tier !== null)) {
    await repo.recordSessionDetail(s.sessionId, { toyConnected: s.toyConnected, supporterTierId: tier });
  }
  const optedOut = s.optedOut ?? (s.userId !== null && (await repo.optedOut(s.userId)));
  const counted = s.heardMs > 0 && !optedOut;
  if (counted) {
    const day = utcDay(s.endedAt);
    const share = s.durationMs > 0 ? Math.min(1, s.heardMs / s.durationMs) : 0;
    const added = {
      fileId: s.fileId,
      day,
      plays: s.play ? 1 : 0,
      listeningMs: Math.round(s.heardMs),
      shareHeard: s.play ? share : 0,
      completions: s.play && share >= COMPLETION_SHARE ? 1 : 0,
      toyPlays: s.play && s.toyConnected ? 1 : 0,
      retention: s.play && s.partsKnown !== false ? retentionOf(s) : NO_RETENTION,
    };
    const creatorId = await repo.uploaderOf(s.fileId);
    await repo.addFileDay(added);
    if (creatorId !== null) await repo.addCreatorDay(creatorId, added);
    if (s.play) {
      const source = s.source ?? UNKNOWN_SOURCE;
      await repo.addFileDayCount(s.fileId, day, 'source', source, 1);
      if (tier !== null) await repo.addFileDayCount(s.fileId, day, 'tier', tier, 1);
      const key = listenerKey(s.listener);
      const week = weekDays(day);
      await repo.addListener('file', s.fileId, day, week, key);
      if (creatorId !== null) {
        await repo.addCreatorSource(creatorId, day, source);
        await repo.addListener('creator', creatorId, day, week, key);
      }
      // Live plays land on the current day; an offline play's day may have ended.
      if (s.served === null) await repo.dropKeptAfter(s.fileId, creatorId, day);
    }
  }
  if (s.userId !== null) {
    if (s.creditedMs > 0 && s.timezone) {
      await repo.addListenerDay(s.userId, localDay(s.endedAt, s.timezone), s.creditedMs);
    }
    if (s.play || s.heardMs > 0) {
      await repo.addListenerFile(s.userId, s.fileId, s.play ? 1 : 0, Math.round(s.heardMs));
    }
    if (s.play) await repo.addListenerTriggers(s.userId, s.fileId);
  }
}

/**
 * Rebuilds every rollup from the raw sessions still kept (for a migration or the benchmark's data):
 * empties them, then rolls each ended session up again in id order, `batchSize` sessions per
 * transaction. What a session heard is recomputed from its served audio, wall-clock time and the
 * file's duration (the player's `listenedMs` is not kept); sessions whose raw detail the clean-up
 * cleared count their plays and time but no retention. Answers the number of sessions rolled up.
 */
export async function rebuildInsightsRollups(db: Db, { batchSize = 1000 } = {}): Promise<number> {
  await withTransaction(db, (tx) => createInsightsRollupsRepo(tx).clearAll());
  let afterId = 0;
  let total = 0;
  for (;;) {
    const batch = await createInsightsRollupsRepo(db).endedSessions(afterId, batchSize);
    if (batch.length === 0) return total;
    await withTransaction(db, async (tx) => {
      for (const row of batch) {
        if (row.fileId === null || row.endedAt === null) continue;
        const durationMs = Number(row.duration ?? 0);
        const wallClockMs = row.endedAt.getTime() - row.startedAt.getTime();
        const served =
          !row.offline && row.audioSize ? { ranges: row.servedRanges, audioSize: row.audioSize } : null;
        // The clean-up cleared the served ranges of old sessions: their time is what they credited.
        const cleared = !row.offline && row.servedRanges.length === 0;
        const deliveredMs = served ? (servedBytes(served.ranges) / served.audioSize) * durationMs : 0;
        const heard = cleared
          ? Math.min(wallClockMs, durationMs, Math.max(row.creditedMs, row.playListener ? durationMs : 0))
          : Math.max(0, Math.min(wallClockMs, durationMs, row.offline ? durationMs : deliveredMs));
        await rollUpSession(tx, {
          sessionId: row.id,
          fileId: row.fileId,
          endedAt: row.endedAt,
          userId: row.userId,
          listener: row.playListener ?? (row.userId !== null ? `user:${row.userId}` : `session:${row.id}`),
          play: row.playListener !== null,
          heardMs: heard,
          durationMs,
          served,
          partsKnown: !cleared,
          source: row.source ?? (row.offline ? 'offline' : null),
          toyConnected: row.toyConnected,
          supporterTierId: row.supporterTierId,
          creditedMs: row.creditedMs,
          timezone: row.timezone,
        });
      }
    });
    total += batch.length;
    afterId = batch[batch.length - 1].id;
  }
}
