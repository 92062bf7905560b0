import {
  LEADERBOARD_PAGE_SIZE,
  type LeaderboardResponse,
  type LeaderboardUserResponse,
} from '@mesmer/shared/api/leaderboard';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

/** GET /api/leaderboard: one page of ranked users. */
export function leaderboardQuery(pageOffset: number, pageSize = LEADERBOARD_PAGE_SIZE) {
  return queryOptions({
    queryKey: ['leaderboard', 'page', pageSize, pageOffset],
    queryFn: ({ signal }) =>
      api<LeaderboardResponse>('/leaderboard', { query: { pageSize, pageOffset }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/leaderboard/user: the signed-in user's rank. */
export const myRankingQuery = queryOptions({
  queryKey: ['leaderboard', 'user', 'self'],
  queryFn: async ({ signal }) =>
    (await api<LeaderboardUserResponse>('/leaderboard/user', { signal })).ranking,
});
