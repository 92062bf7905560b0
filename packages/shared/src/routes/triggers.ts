import type { RouteAddress } from './address.ts';

/** The addresses of triggersApi's calls (their schemas: api/triggers.ts). */
export const triggersRoutes = {
  get: { name: 'triggers.get', method: 'GET', path: '/triggers' },
  create: { name: 'triggers.create', method: 'POST', path: '/triggers' },
  requests: { name: 'triggers.requests', method: 'GET', path: '/triggers/requests' },
  update: { name: 'triggers.update', method: 'PUT', path: '/triggers' },
  delete: { name: 'triggers.delete', method: 'DELETE', path: '/trigger' },
} as const satisfies Record<string, RouteAddress>;
