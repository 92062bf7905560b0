import { count, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

export interface PointsRow {
  username: string;
  points: number;
}

/** Only users with points are ranked on the board. */
const ranked = gt(users.points, 0);

export function createLeaderboardRepo(db: Db) {
  return {
    /**
     * A page of ranked users by points (most first), then username: an index-only scan
     * of users_leaderboard_idx, whose order this matches exactly (points desc nulls last).
     */
    async page(limit: number, offset: number): Promise<PointsRow[]> {
      return db
        .select({ username: users.username, points: users.points })
        .from(users)
        .where(ranked)
        .orderBy(sql`${users.points} desc nulls last`, sql`lower(${users.username}) collate "C"`)
        .limit(limit)
        .offset(offset);
    },

    async countRanked(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(ranked);
      return row.n;
    },

    /** How many users have more than `points`: a rank is this plus one (an index range scan). */
    async countAbove(points: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(users).where(gt(users.points, points));
      return row.n;
    },

    async findByUsername(username: string): Promise<PointsRow | null> {
      const [row] = await db
        .select({ username: users.username, points: users.points })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`);
      return row ?? null;
    },

    async findById(id: number): Promise<PointsRow | null> {
      const [row] = await db
        .select({ username: users.username, points: users.points })
        .from(users)
        .where(eq(users.id, id));
      return row ?? null;
    },
  };
}
