import type { RouteAddress } from './address.ts';

/** The addresses of lovenseApi's calls (their schemas: api/lovense.ts). */
export const lovenseRoutes = {
  qr: { name: 'lovense.qr', method: 'POST', path: '/lovense/qr' },
  callback: { name: 'lovense.callback', method: 'POST', path: '/lovense/callback' },
  toys: { name: 'lovense.toys', method: 'GET', path: '/lovense/toys' },
  command: { name: 'lovense.command', method: 'POST', path: '/lovense/command' },
  test: { name: 'lovense.test', method: 'POST', path: '/lovense/test' },
  disconnect: { name: 'lovense.disconnect', method: 'DELETE', path: '/lovense' },
} as const satisfies Record<string, RouteAddress>;

/** The answer every Lovense call gives while the server has no LOVENSE_DEVELOPER_TOKEN. */
export const LOVENSE_NOT_CONFIGURED = 'Lovense is not configured on this server.';
