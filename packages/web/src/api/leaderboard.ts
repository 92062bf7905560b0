import { LEADERBOARD_PAGE_SIZE, leaderboardRoutes } from '@mesmer/shared/routes/leaderboard';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../lib/api-client.ts';

/** Points change the ranks: a finished listening session invalidates `all`. */
export const leaderboardKeys = {
  all: ['leaderboard'] as const,
  page: (pageSize: number, pageOffset: number) =>
    [...leaderboardKeys.all, 'page', pageSize, pageOffset] as const,
  self: () => [...leaderboardKeys.all, 'user', 'self'] as const,
};

/** GET /api/leaderboard: one page of ranked users. */
export function leaderboardQuery(pageOffset: number, pageSize = LEADERBOARD_PAGE_SIZE) {
  return queryOptions({
    queryKey: leaderboardKeys.page(pageSize, pageOffset),
    queryFn: ({ signal }) => call(leaderboardRoutes.page, { query: { pageSize, pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/leaderboard/user: the signed-in user's rank. */
export const myRankingQuery = queryOptions({
  queryKey: leaderboardKeys.self(),
  queryFn: async ({ signal }) => (await call(leaderboardRoutes.user, { signal })).ranking,
});
