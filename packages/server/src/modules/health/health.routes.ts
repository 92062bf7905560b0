import { healthResponse } from '@mesmer/shared/api/health';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { tags: ['health'], response: { 200: healthResponse } } }, async () => {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: ctx.database.kind };
    });
}
