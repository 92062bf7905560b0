import { testClockApi } from '@mesmer/shared/api/test-clock';
import type { FastifyInstance } from 'fastify';
import { OffsetClock } from '../../platform/clock.ts';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';

/**
 * POST /api/test/clock exists only when NODE_ENV=test and no clock was injected (the app then
 * runs on an OffsetClock); never in development or production.
 */
export async function testClockRoutes(app: FastifyInstance, ctx: AppContext) {
  const clock = ctx.clock;
  if (ctx.config.env !== 'test' || !(clock instanceof OffsetClock)) return;
  registerRoute(app, testClockApi.advance, async (req) => {
    clock.offsetMs += req.body.advanceMs;
    return { now: clock.now().toISOString() };
  });
}
