import { LEADERBOARD_PAGE_SIZE, leaderboardApi } from '@mesmer/shared/api/leaderboard';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/api-client.ts';

/** GET /api/leaderboard: one page of ranked users. */
export function leaderboardQuery(pageOffset: number, pageSize = LEADERBOARD_PAGE_SIZE) {
  return queryOptions({
    queryKey: ['leaderboard', 'page', pageSize, pageOffset],
    queryFn: ({ signal }) => call(leaderboardApi.page, { query: { pageSize, pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/leaderboard/user: the signed-in user's rank. */
export const myRankingQuery = queryOptions({
  queryKey: ['leaderboard', 'user', 'self'],
  queryFn: async ({ signal }) => (await call(leaderboardApi.user, { signal })).ranking,
});
