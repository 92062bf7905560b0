import { healthApi } from '@mesmer/shared/api/health';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createHealthService } from './health.service.ts';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createHealthService(ctx, app.log);
  app.addHook('onClose', () => service.close());
  registerRoute(app, healthApi.check, async (_req, reply) => {
    const health = await service.check();
    return reply.code(health.status === 'ok' ? 200 : 503).send(health);
  });
}
