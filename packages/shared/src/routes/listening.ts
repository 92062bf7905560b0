import type { RouteAddress } from './address.ts';

/** The addresses of listeningApi's calls (their schemas: api/listening.ts). */
export const listeningRoutes = {
  session: { name: 'listening.session', method: 'POST', path: '/session' },
  offline: { name: 'listening.offline', method: 'POST', path: '/session/offline' },
} as const satisfies Record<string, RouteAddress>;
