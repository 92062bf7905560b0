import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authSessions, roles, userRoles, users } from '../../db/schema/index.ts';

export interface SessionUser {
  id: number;
  username: string;
  timezone: string;
  roles: string[];
}

export function createSessionRepo(db: Db) {
  // Runs on every signed-in request: a fixed statement, prepared once per connection.
  const liveSessionUser = db
    .select({ id: users.id, username: users.username, timezone: users.timezone, role: roles.name })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(
      and(
        eq(authSessions.tokenHash, sql.placeholder('tokenHash')),
        gt(authSessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('live_session_user');

  return {
    async insert(tokenHash: string, userId: number, expiresAt: Date) {
      await db.insert(authSessions).values({ tokenHash, userId, expiresAt });
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
    /** The user behind a live session, with role names. */
    async findUser(tokenHash: string, now: Date): Promise<SessionUser | null> {
      const rows = await liveSessionUser.execute({ tokenHash, now });
      if (rows.length === 0) return null;
      const { id, username, timezone } = rows[0];
      return { id, username, timezone, roles: rows.flatMap((r) => (r.role ? [r.role] : [])) };
    },
  };
}
export type SessionRepo = ReturnType<typeof createSessionRepo>;
