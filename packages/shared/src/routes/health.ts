import type { RouteAddress } from './address.ts';

/** The addresses of healthApi's calls (their schemas: api/health.ts). */
export const healthRoutes = {
  check: { name: 'health.check', method: 'GET', path: '/health' },
} as const satisfies Record<string, RouteAddress>;
