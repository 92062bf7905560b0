import { generatorApi } from '@mesmer/shared/api/generator';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { GeneratorService } from './generator.service.ts';

export async function generatorRoutes(app: FastifyInstance, service: GeneratorService) {
  registerRoute(app, generatorApi.generate, async (req) => service.generate(req.user, req.query));
}
