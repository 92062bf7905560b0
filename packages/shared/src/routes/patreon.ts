import type { RouteAddress } from './address.ts';

/** The addresses of patreonApi's calls (their schemas: api/patreon.ts). */
export const patreonRoutes = {
  authorize: { name: 'patreon.authorize', method: 'GET', path: '/patreon/authorize' },
  token: { name: 'patreon.token', method: 'POST', path: '/patreon/token' },
  refresh: { name: 'patreon.refresh', method: 'GET', path: '/patreon' },
  disconnect: { name: 'patreon.disconnect', method: 'DELETE', path: '/patreon' },
  webhook: { name: 'patreon.webhook', method: 'POST', path: '/patreon/webhook' },
  importTiers: { name: 'patreon.importTiers', method: 'POST', path: '/patreon/tiers/import' },
} as const satisfies Record<string, RouteAddress>;
