import { errorResponse } from '@mesmer/shared/api/common';
import {
  leaderboardQuery,
  leaderboardResponse,
  leaderboardUserQuery,
  leaderboardUserResponse,
} from '@mesmer/shared/api/leaderboard';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';
import { createLeaderboardService } from './leaderboard.service.ts';

export async function leaderboardRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createLeaderboardService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/leaderboard',
    {
      schema: {
        tags: ['leaderboard'],
        summary: 'Users ranked by listening points',
        description:
          'Users with at least one point, most points first, ties by username. Ranks follow standard ' +
          'competition ranking: equal points share a rank and the next rank skips ("1, 2, 2, 4"). ' +
          '`totalItems` counts ranked users. Open to anonymous visitors.',
        querystring: leaderboardQuery,
        response: { 200: leaderboardResponse, 400: errorResponse },
      },
    },
    async (req) => service.page(req.query),
  );

  api.get(
    '/leaderboard/user',
    {
      schema: {
        tags: ['leaderboard'],
        summary: "A user's rank (default: yourself)",
        description:
          'rank = users with more points + 1. A user without points gets the rank after every ranked user ' +
          '(they are not listed on the board). 401 without `user` when signed out; 404 for an unknown username.',
        querystring: leaderboardUserQuery,
        response: { 200: leaderboardUserResponse, 401: errorResponse, 404: errorResponse },
      },
    },
    async (req) => service.userRanking(req.user, req.query.user),
  );
}
