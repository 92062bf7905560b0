import { and, eq, gt, isNull, lt, max, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, listeningSessions, offlineCopies, users } from '../../db/schema/index.ts';
import type { ServedRanges } from './served-ranges.ts';

export interface ListeningSessionRow {
  id: number;
  userId: number | null;
  /** The file whose audio was served under the session; null before any was. */
  fileId: number | null;
  startedAt: Date;
  endedAt: Date | null;
  audioSize: number | null;
  servedRanges: ServedRanges;
  /** Where the play came from, as the player said at the start (insights); null when it did not. */
  source: string | null;
}

const sessionColumns = {
  id: listeningSessions.id,
  userId: listeningSessions.userId,
  fileId: listeningSessions.fileId,
  startedAt: listeningSessions.startedAt,
  endedAt: listeningSessions.endedAt,
  audioSize: listeningSessions.audioSize,
  servedRanges: listeningSessions.servedRanges,
  source: listeningSessions.source,
};

/** A session's binding and served audio as last seen (`known`), and what to store over them. */
export interface ServedChange {
  known: { id: number; fileId: number | null; audioSize: number | null; servedRanges: ServedRanges };
  next: { fileId: number | null; audioSize: number | null; servedRanges: ServedRanges };
}

/** The time a credited session covered. */
export interface CreditedSpan {
  startedAt: Date;
  endedAt: Date;
}

export interface ListenerAccount {
  points: number;
  listeningCarryMs: number;
  streak: number;
  /** YYYY-MM-DD, or null before the first counted day. */
  lastListenDay: string | null;
  timezone: string;
  /** Left out of creators' insights (docs/decisions/047). */
  insightsOptOut: boolean;
}

export function createListeningRepo(db: Db) {
  return {
    async insertSession(session: {
      tokenHash: string;
      userId: number | null;
      startedAt: Date;
      source?: string;
    }) {
      await db.insert(listeningSessions).values(session);
    },

    async findSession(tokenHash: string): Promise<ListeningSessionRow | null> {
      const [row] = await db
        .select(sessionColumns)
        .from(listeningSessions)
        .where(eq(listeningSessions.tokenHash, tokenHash));
      return row ?? null;
    },

    /** The session, locked until the surrounding transaction ends (served ranges are merged one request at a time). */
    async lockSession(tokenHash: string): Promise<ListeningSessionRow | null> {
      const [row] = await db
        .select(sessionColumns)
        .from(listeningSessions)
        .where(eq(listeningSessions.tokenHash, tokenHash))
        .for('update');
      return row ?? null;
    },

    /** Binds the session to the file and stores the bytes of its audio served so far. */
    async recordServed(
      sessionId: number,
      served: { fileId: number | null; audioSize: number | null; servedRanges: ServedRanges },
    ) {
      await db.update(listeningSessions).set(served).where(eq(listeningSessions.id, sessionId));
    },

    /**
     * Stores each change's `next` over its session's binding and served audio if they are still its
     * `known` and the session has not ended, in one statement; answers the ids of the sessions written.
     */
    async recordServedIfUnchanged(changes: readonly ServedChange[]): Promise<Set<number>> {
      if (changes.length === 0) return new Set();
      const ranges = (r: ServedRanges) => sql`${JSON.stringify(r)}::jsonb`;
      const rows = sql.join(
        changes.map(
          ({ known, next }) =>
            sql`(${known.id}::int, ${known.fileId}::int, ${known.audioSize}::int8, ${ranges(known.servedRanges)},
              ${next.fileId}::int, ${next.audioSize}::int8, ${ranges(next.servedRanges)})`,
        ),
        sql`, `,
      );
      // Both drivers (node-postgres, PGlite) answer raw statements as { rows }.
      const { rows: written } = (await db.execute(sql`
        update ${listeningSessions} as s
        set file_id = v.next_file_id, audio_size = v.next_audio_size, served_ranges = v.next_ranges
        from (values ${rows}) as v(id, file_id, audio_size, served_ranges, next_file_id, next_audio_size, next_ranges)
        where s.id = v.id and s.ended_at is null and s.file_id is not distinct from v.file_id
          and s.audio_size is not distinct from v.audio_size and s.served_ranges = v.served_ranges
        returning s.id`)) as { rows: { id: number }[] };
      return new Set(written.map((row) => Number(row.id)));
    },

    /** Marks the session ended; false when another request ended it first. */
    async claimEnd(sessionId: number, endedAt: Date): Promise<boolean> {
      const rows = await db
        .update(listeningSessions)
        .set({ endedAt })
        .where(and(eq(listeningSessions.id, sessionId), isNull(listeningSessions.endedAt)))
        .returning({ id: listeningSessions.id });
      return rows.length === 1;
    },

    /** The file's duration in ms, with its row locked so a listener's plays of it are counted one at a time. */
    async lockFile(fileId: number): Promise<number | null> {
      const [row] = await db
        .select({ duration: files.duration })
        .from(files)
        .where(eq(files.id, fileId))
        .for('update');
      return row?.duration ?? null;
    },

    /**
     * Whether a play of the file was counted for this listener by a session that ended after `since`
     * (and before `until`, when given: an offline session's window lies in the past).
     */
    async playCountedSince(listener: string, fileId: number, since: Date, until?: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: listeningSessions.id })
        .from(listeningSessions)
        .where(
          and(
            eq(listeningSessions.playListener, listener),
            eq(listeningSessions.fileId, fileId),
            gt(listeningSessions.endedAt, since),
            until && lt(listeningSessions.endedAt, until),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    async countPlay(sessionId: number, fileId: number, listener: string) {
      await db
        .update(listeningSessions)
        .set({ playListener: listener })
        .where(eq(listeningSessions.id, sessionId));
      await db
        .update(files)
        .set({ plays: sql`${files.plays} + 1` })
        .where(eq(files.id, fileId));
    },

    /**
     * Deletes sessions nothing reads any more: never ended and started before `before`, or
     * ended before it without credited time (the latest credited end of each user is kept).
     */
    async deleteStale(before: Date): Promise<number> {
      const rows = await db
        .delete(listeningSessions)
        .where(
          or(
            and(isNull(listeningSessions.endedAt), lt(listeningSessions.startedAt, before)),
            and(lt(listeningSessions.endedAt, before), eq(listeningSessions.creditedMs, 0)),
          ),
        )
        .returning({ id: listeningSessions.id });
      return rows.length;
    },

    /**
     * Clears the raw insight detail (served byte ranges, source, toy, tier) of sessions that ended
     * before `before` (RAW_SESSION_RETENTION_DAYS ago); the rollups built from it stay. Answers how many.
     */
    async clearRawDetail(before: Date): Promise<number> {
      const rows = await db
        .update(listeningSessions)
        .set({ servedRanges: [], source: null, toyConnected: null, supporterTierId: null })
        .where(
          and(
            lt(listeningSessions.endedAt, before),
            or(
              sql`${listeningSessions.servedRanges} <> '[]'::jsonb`,
              sql`${listeningSessions.source} is not null`,
              sql`${listeningSessions.toyConnected} is not null`,
              sql`${listeningSessions.supporterTierId} is not null`,
            ),
          ),
        )
        .returning({ id: listeningSessions.id });
      return rows.length;
    },

    /** The listener's points and streak, locked until the surrounding transaction ends. */
    async lockAccount(userId: number): Promise<ListenerAccount | null> {
      const [row] = await db
        .select({
          points: users.points,
          listeningCarryMs: users.listeningCarryMs,
          streak: users.streak,
          lastListenDay: users.lastListenDay,
          timezone: users.timezone,
          insightsOptOut: users.insightsOptOut,
        })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      return row ?? null;
    },

    /** When the user's latest credited session ended (time before it is already credited). */
    async lastCreditedEnd(userId: number): Promise<Date | null> {
      const [row] = await db
        .select({ endedAt: max(listeningSessions.endedAt) })
        .from(listeningSessions)
        .where(and(eq(listeningSessions.userId, userId), sql`${listeningSessions.creditedMs} > 0`));
      return row?.endedAt ?? null;
    },

    /** The user's credited sessions (online or offline) whose time overlaps `from`–`to`. */
    async creditedSpans(userId: number, from: Date, to: Date): Promise<CreditedSpan[]> {
      const rows = await db
        .select({ startedAt: listeningSessions.startedAt, endedAt: listeningSessions.endedAt })
        .from(listeningSessions)
        .where(
          and(
            eq(listeningSessions.userId, userId),
            gt(listeningSessions.creditedMs, 0),
            gt(listeningSessions.endedAt, from),
            lt(listeningSessions.startedAt, to),
          ),
        );
      return rows.flatMap((r) => (r.endedAt ? [{ startedAt: r.startedAt, endedAt: r.endedAt }] : []));
    },

    /** The whole download of the file's audio for offline listening; the first one is kept. */
    async recordOfflineCopy(userId: number, fileId: number, copiedAt: Date) {
      await db.insert(offlineCopies).values({ userId, fileId, copiedAt }).onConflictDoNothing();
    },

    /** When the user first downloaded the whole file for offline listening, or null. */
    async offlineCopiedAt(userId: number, fileId: number): Promise<Date | null> {
      const [row] = await db
        .select({ copiedAt: offlineCopies.copiedAt })
        .from(offlineCopies)
        .where(and(eq(offlineCopies.userId, userId), eq(offlineCopies.fileId, fileId)));
      return row?.copiedAt ?? null;
    },

    /** What an offline session with this file and start credited when it was sent before, or null. */
    async findOfflineSession(
      userId: number,
      fileId: number,
      startedAt: Date,
    ): Promise<{ creditedMs: number; points: number } | null> {
      const [row] = await db
        .select({ creditedMs: listeningSessions.creditedMs, points: listeningSessions.points })
        .from(listeningSessions)
        .where(
          and(
            eq(listeningSessions.offline, true),
            eq(listeningSessions.userId, userId),
            eq(listeningSessions.fileId, fileId),
            eq(listeningSessions.startedAt, startedAt),
          ),
        );
      return row ?? null;
    },

    /** Stores an offline session (already ended) before it is credited; answers its id. */
    async insertOfflineSession(session: {
      tokenHash: string;
      userId: number;
      fileId: number;
      startedAt: Date;
      endedAt: Date;
    }): Promise<number> {
      const [row] = await db
        .insert(listeningSessions)
        .values({ ...session, offline: true })
        .returning({ id: listeningSessions.id });
      return row.id;
    },

    /** Records what a session credited: its time and points, the user's new carry and, with points, the streak. */
    async award(
      userId: number,
      sessionId: number,
      award: {
        creditedMs: number;
        points: number;
        carryMs: number;
        streak?: { streak: number; lastListenDay: string };
      },
    ): Promise<number> {
      await db
        .update(listeningSessions)
        .set({ points: award.points, creditedMs: award.creditedMs })
        .where(eq(listeningSessions.id, sessionId));
      const [row] = await db
        .update(users)
        .set({
          points: sql`${users.points} + ${award.points}`,
          listeningCarryMs: award.carryMs,
          ...(award.streak && { streak: award.streak.streak, lastListenDay: award.streak.lastListenDay }),
        })
        .where(eq(users.id, userId))
        .returning({ points: users.points });
      return row.points;
    },
  };
}
