import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { LEADERBOARD_PAGE_SIZE, leaderboardRoutes } from '../routes/leaderboard.ts';
import { errorResponse, pagingQuery, text } from './common.ts';
import { defineRoute } from './contract.ts';

export { LEADERBOARD_PAGE_SIZE } from '../routes/leaderboard.ts';

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

export const leaderboardApi = {
  page: defineRoute(leaderboardRoutes.page, {
    tags: ['leaderboard'],
    summary: 'Users ranked by listening points',
    description:
      'Users with at least one point, most points first, ties by username. Ranks follow standard ' +
      'competition ranking: equal points share a rank and the next rank skips ("1, 2, 2, 4"). ' +
      '`totalItems` counts ranked users. Open to anonymous visitors.',
    query: leaderboardQuery,
    responses: { 200: leaderboardResponse, 400: errorResponse },
  }),
  user: defineRoute(leaderboardRoutes.user, {
    tags: ['leaderboard'],
    summary: "A user's rank (default: yourself)",
    description:
      'rank = users with more points + 1. A user without points gets the rank after every ranked user ' +
      '(they are not listed on the board). 401 without `user` when signed out; 404 for an unknown username.',
    query: leaderboardUserQuery,
    responses: { 200: leaderboardUserResponse, 401: errorResponse, 404: errorResponse },
  }),
};
