import { z } from 'zod';
import { pagingQuery, TEXT_LIMITS, text } from './common.ts';

export const LEADERBOARD_PAGE_SIZE = 50;

export const leaderboardRow = z.object({
  /** Competition ranking: users with equal points share a rank ("1, 2, 2, 4"). */
  rank: z.number().int(),
  username: z.string(),
  points: z.number().int(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRow>;

/** GET /api/leaderboard: users with at least one point, by points (most first), then username. */
export const leaderboardQuery = z.object(pagingQuery(LEADERBOARD_PAGE_SIZE));
export type LeaderboardQuery = z.input<typeof leaderboardQuery>;
export const leaderboardResponse = z.object({
  leaderboard: z.array(leaderboardRow),
  totalItems: z.number().int(),
});
export type LeaderboardResponse = z.infer<typeof leaderboardResponse>;

/** GET /api/leaderboard/user?user=<username>: one user's rank (yourself without `user`). */
export const leaderboardUserQuery = z.object({ user: text(TEXT_LIMITS.username).trim().min(1).optional() });
export const leaderboardUserResponse = z.object({ ranking: leaderboardRow });
export type LeaderboardUserResponse = z.infer<typeof leaderboardUserResponse>;
