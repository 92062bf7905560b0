import type { RouteAddress } from './address.ts';

/** The addresses of insightsApi's calls (their schemas: api/insights.ts; rules: domain/insights.ts). */
export const insightsRoutes = {
  file: { name: 'insights.file', method: 'GET', path: '/insights/files/:id' },
  catalogue: { name: 'insights.catalogue', method: 'GET', path: '/insights/creators/:id' },
  listening: { name: 'insights.listening', method: 'GET', path: '/insights/listening' },
  site: { name: 'insights.site', method: 'GET', path: '/insights/site' },
} as const satisfies Record<string, RouteAddress>;
