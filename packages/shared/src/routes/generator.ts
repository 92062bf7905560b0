import type { RouteAddress } from './address.ts';

/** The addresses of generatorApi's calls (their schemas: api/generator.ts). */
export const generatorRoutes = {
  generate: { name: 'generator.generate', method: 'GET', path: '/playlist/generate' },
} as const satisfies Record<string, RouteAddress>;
