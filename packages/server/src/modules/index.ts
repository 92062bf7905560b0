import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.ts';
import { healthRoutes } from './health/health.routes.ts';

/** Every API module, mounted under /api. Add new domains here. */
export async function registerModules(api: FastifyInstance, ctx: AppContext) {
  await healthRoutes(api, ctx);
}
