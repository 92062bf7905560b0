import { leaderboardApi } from '@mesmer/shared/api/leaderboard';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createLeaderboardService } from './leaderboard.service.ts';

export async function leaderboardRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createLeaderboardService(ctx);
  registerRoute(app, leaderboardApi.page, async (req) => service.page(req.query));
  registerRoute(app, leaderboardApi.user, async (req) => service.userRanking(req.user, req.query.user));
}
