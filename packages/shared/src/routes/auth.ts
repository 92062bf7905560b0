import type { RouteAddress } from './address.ts';

/** The addresses of authApi's calls (their schemas: api/auth.ts). */
export const authRoutes = {
  login: { name: 'auth.login', method: 'POST', path: '/token' },
  logout: { name: 'auth.logout', method: 'DELETE', path: '/token' },
  logoutEverywhere: { name: 'auth.logoutEverywhere', method: 'DELETE', path: '/sessions' },
  changePassword: { name: 'auth.changePassword', method: 'PUT', path: '/user/password' },
  register: { name: 'auth.register', method: 'POST', path: '/register' },
  verify: { name: 'auth.verify', method: 'POST', path: '/verify' },
  resetPassword: { name: 'auth.resetPassword', method: 'POST', path: '/reset_password' },
} as const satisfies Record<string, RouteAddress>;
