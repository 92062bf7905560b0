import { healthApi } from '@mesmer/shared/api/health';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { HealthService } from './health.service.ts';

export async function healthRoutes(app: FastifyInstance, service: HealthService) {
  app.addHook('onClose', () => service.close());
  registerRoute(app, healthApi.check, async (_req, reply) => {
    const health = await service.check();
    return reply.code(health.status === 'ok' ? 200 : 503).send(health);
  });
}
