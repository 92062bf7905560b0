import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OffsetClock } from '../../platform/clock.ts';
import type { AppContext } from '../../platform/context.ts';

/**
 * POST /api/test/clock: moves the server's clock forward, so an end-to-end journey can
 * earn listening minutes without waiting for them. Exists only when NODE_ENV=test and no
 * clock was injected (the app then runs on an OffsetClock); never in development or production.
 */
export async function testClockRoutes(app: FastifyInstance, ctx: AppContext) {
  const clock = ctx.clock;
  if (ctx.config.env !== 'test' || !(clock instanceof OffsetClock)) return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/test/clock',
    {
      schema: {
        tags: ['test'],
        summary: 'Test servers only (NODE_ENV=test): move the server clock forward by advanceMs',
        body: z.object({
          advanceMs: z
            .number()
            .int()
            .min(0)
            .max(365 * 86_400_000),
        }),
        response: { 200: z.object({ now: z.string() }) },
      },
    },
    async (req) => {
      clock.offsetMs += req.body.advanceMs;
      return { now: clock.now().toISOString() };
    },
  );
}
