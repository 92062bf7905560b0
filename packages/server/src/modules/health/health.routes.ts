import { healthApi } from '@mesmer/shared/api/health';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createHealthRepo } from './health.repo.ts';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  const repo = createHealthRepo(ctx.db);
  registerRoute(app, healthApi.check, async () => {
    await repo.ping();
    return { status: 'ok' as const, database: ctx.database.kind };
  });
}
