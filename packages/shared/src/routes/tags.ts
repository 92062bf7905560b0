import type { RouteAddress } from './address.ts';

/** The addresses of tagsApi's calls (their schemas: api/tags.ts). */
export const tagsRoutes = {
  list: { name: 'tags.list', method: 'GET', path: '/tags' },
  creators: { name: 'tags.creators', method: 'GET', path: '/creators' },
} as const satisfies Record<string, RouteAddress>;
