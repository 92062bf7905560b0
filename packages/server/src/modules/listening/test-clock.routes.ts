import { testClockApi } from '@mesmer/shared/api/test-clock';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { type Clock, OffsetClock } from '../../platform/clock.ts';
import { registerRoute } from '../../platform/contract-route.ts';

/**
 * POST /api/test/clock exists only when NODE_ENV=test and no clock was injected (the app then
 * runs on an OffsetClock); never in development or production.
 */
export async function testClockRoutes(
  app: FastifyInstance,
  { clock, config }: { clock: Clock; config: Config },
) {
  if (config.env !== 'test' || !(clock instanceof OffsetClock)) return;
  registerRoute(app, testClockApi.advance, async (req) => {
    clock.offsetMs += req.body.advanceMs;
    return { now: clock.now().toISOString() };
  });
}
