import { z } from 'zod';
import { testClockRoutes } from '../routes/test-clock.ts';
import { defineRoute } from './contract.ts';

/**
 * POST /api/test/clock: moves a test server's clock forward, so an end-to-end journey can earn
 * listening minutes without waiting for them. Registered only on test servers (NODE_ENV=test).
 */
export const testClockApi = {
  advance: defineRoute(testClockRoutes.advance, {
    tags: ['test'],
    summary: 'Test servers only (NODE_ENV=test): move the server clock forward by advanceMs',
    body: z.object({
      advanceMs: z
        .number()
        .int()
        .min(0)
        .max(365 * 86_400_000),
    }),
    responses: { 200: z.object({ now: z.string() }) },
  }),
};
