import type { RouteAddress } from './address.ts';

/** The addresses of uploadsApi's calls (their schemas: api/uploads.ts). */
export const uploadsRoutes = {
  chunk: { name: 'uploads.chunk', method: 'POST', path: '/files/upload' },
  status: { name: 'uploads.status', method: 'GET', path: '/files/upload' },
  list: { name: 'uploads.list', method: 'GET', path: '/files/uploads' },
  cancel: { name: 'uploads.cancel', method: 'DELETE', path: '/files/upload' },
} as const satisfies Record<string, RouteAddress>;
