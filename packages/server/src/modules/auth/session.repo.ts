import { eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authSessions } from '../../db/schema/index.ts';

export function createSessionRepo(db: Db) {
  return {
    /** A session starting `now` (the app's clock), ending at `expiresAt`. */
    async insert(tokenHash: string, userId: number, now: Date, expiresAt: Date) {
      await db.insert(authSessions).values({ tokenHash, userId, createdAt: now, lastSeenAt: now, expiresAt });
    },
    async delete(tokenHash: string) {
      await db.delete(authSessions).where(eq(authSessions.tokenHash, tokenHash));
    },
    async deleteAllForUser(userId: number) {
      await db.delete(authSessions).where(eq(authSessions.userId, userId));
    },
    /** Deletes sessions that expired by `now`; answers how many. */
    async deleteExpired(now: Date): Promise<number> {
      const rows = await db
        .delete(authSessions)
        .where(lte(authSessions.expiresAt, now))
        .returning({ userId: authSessions.userId });
      return rows.length;
    },
  };
}
