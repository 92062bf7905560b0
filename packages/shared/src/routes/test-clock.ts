import type { RouteAddress } from './address.ts';

/** The addresses of testClockApi's calls (their schemas: api/test-clock.ts). */
export const testClockRoutes = {
  advance: { name: 'testClock.advance', method: 'POST', path: '/test/clock' },
} as const satisfies Record<string, RouteAddress>;
