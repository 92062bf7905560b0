import type { RouteAddress } from './address.ts';

/** The addresses of accountDataApi's calls (their schemas: api/account-data.ts). */
export const accountDataRoutes = {
  export: { name: 'accountData.export', method: 'GET', path: '/user/export' },
  delete: { name: 'accountData.delete', method: 'DELETE', path: '/user' },
} as const satisfies Record<string, RouteAddress>;
