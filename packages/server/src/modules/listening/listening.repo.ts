import { and, eq, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { files, listeningSessions, users } from '../../db/schema/index.ts';

export interface ListeningSessionRow {
  id: number;
  userId: number | null;
  startedAt: Date;
  endedAt: Date | null;
}

export interface ListenerAccount {
  points: number;
  streak: number;
  /** YYYY-MM-DD, or null before the first counted day. */
  lastListenDay: string | null;
  timezone: string;
}

export function createListeningRepo(db: Db) {
  return {
    async insertSession(session: { tokenHash: string; userId: number | null; startedAt: Date }) {
      await db.insert(listeningSessions).values(session);
    },

    async findSession(tokenHash: string): Promise<ListeningSessionRow | null> {
      const [row] = await db
        .select({
          id: listeningSessions.id,
          userId: listeningSessions.userId,
          startedAt: listeningSessions.startedAt,
          endedAt: listeningSessions.endedAt,
        })
        .from(listeningSessions)
        .where(eq(listeningSessions.tokenHash, tokenHash));
      return row ?? null;
    },

    /** Marks the session ended; false when another request ended it first. */
    async claimEnd(sessionId: number, endedAt: Date, fileId: number): Promise<boolean> {
      const rows = await db
        .update(listeningSessions)
        .set({ endedAt, fileId })
        .where(and(eq(listeningSessions.id, sessionId), isNull(listeningSessions.endedAt)))
        .returning({ id: listeningSessions.id });
      return rows.length === 1;
    },

    async fileDuration(fileId: number): Promise<number | null> {
      const [row] = await db.select({ duration: files.duration }).from(files).where(eq(files.id, fileId));
      return row?.duration ?? null;
    },

    async countPlay(fileId: number) {
      await db
        .update(files)
        .set({ plays: sql`${files.plays} + 1` })
        .where(eq(files.id, fileId));
    },

    /** The listener's points and streak, locked until the surrounding transaction ends. */
    async lockAccount(userId: number): Promise<ListenerAccount | null> {
      const [row] = await db
        .select({
          points: users.points,
          streak: users.streak,
          lastListenDay: users.lastListenDay,
          timezone: users.timezone,
        })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      return row ?? null;
    },

    /** When the user's latest session that earned points ended (time before it is already credited). */
    async lastCreditedEnd(userId: number): Promise<Date | null> {
      const [row] = await db
        .select({ endedAt: max(listeningSessions.endedAt) })
        .from(listeningSessions)
        .where(and(eq(listeningSessions.userId, userId), sql`${listeningSessions.points} > 0`));
      return row?.endedAt ?? null;
    },

    async award(
      userId: number,
      sessionId: number,
      award: { points: number; streak: number; lastListenDay: string },
    ): Promise<number> {
      await db
        .update(listeningSessions)
        .set({ points: award.points })
        .where(eq(listeningSessions.id, sessionId));
      const [row] = await db
        .update(users)
        .set({
          points: sql`${users.points} + ${award.points}`,
          streak: award.streak,
          lastListenDay: award.lastListenDay,
        })
        .where(eq(users.id, userId))
        .returning({ points: users.points });
      return row.points;
    },
  };
}
export type ListeningRepo = ReturnType<typeof createListeningRepo>;
