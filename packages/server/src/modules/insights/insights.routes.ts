import { insightsApi } from '@mesmer/shared/api/insights';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { InsightsService } from './insights.service.ts';

export async function insightsRoutes(app: FastifyInstance, service: InsightsService) {
  registerRoute(app, insightsApi.file, async (req) => service.file(req.user, req.params.id, req.query));
  registerRoute(app, insightsApi.catalogue, async (req) =>
    service.catalogue(req.user, req.params.id, req.query),
  );
  registerRoute(app, insightsApi.listening, async (req) => service.listening(req.user));
  registerRoute(app, insightsApi.site, async (req) => service.site(req.user, req.query));
}
