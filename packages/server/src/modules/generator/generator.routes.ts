import { generatorApi } from '@mesmer/shared/api/generator';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createGeneratorService } from './generator.service.ts';

export async function generatorRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createGeneratorService(ctx);
  registerRoute(app, generatorApi.generate, async (req) => service.generate(req.user, req.query));
}
