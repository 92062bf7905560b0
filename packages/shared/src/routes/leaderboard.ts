import type { RouteAddress } from './address.ts';

/** The addresses of leaderboardApi's calls (their schemas: api/leaderboard.ts). */
export const leaderboardRoutes = {
  page: { name: 'leaderboard.page', method: 'GET', path: '/leaderboard' },
  user: { name: 'leaderboard.user', method: 'GET', path: '/leaderboard/user' },
} as const satisfies Record<string, RouteAddress>;

export const LEADERBOARD_PAGE_SIZE = 50;
