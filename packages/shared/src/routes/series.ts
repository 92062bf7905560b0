import type { RouteAddress } from './address.ts';

/** The addresses of seriesApi's calls (their schemas: api/series.ts). */
export const seriesRoutes = {
  get: { name: 'series.get', method: 'GET', path: '/series' },
  savePosition: { name: 'series.savePosition', method: 'PUT', path: '/userseries' },
} as const satisfies Record<string, RouteAddress>;
