import { healthApi } from '@mesmer/shared/api/health';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  registerRoute(app, healthApi.check, async () => {
    await ctx.db.execute(sql`select 1`);
    return { status: 'ok' as const, database: ctx.database.kind };
  });
}
