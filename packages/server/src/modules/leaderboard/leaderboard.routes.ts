import { leaderboardApi } from '@mesmer/shared/api/leaderboard';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { LeaderboardService } from './leaderboard.service.ts';

export async function leaderboardRoutes(app: FastifyInstance, service: LeaderboardService) {
  registerRoute(app, leaderboardApi.page, async (req) => service.page(req.query));
  registerRoute(app, leaderboardApi.user, async (req) => service.userRanking(req.user, req.query.user));
}
