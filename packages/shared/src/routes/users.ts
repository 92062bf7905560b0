import type { RouteAddress } from './address.ts';

/** The addresses of usersApi's calls (their schemas: api/users.ts). */
export const usersRoutes = {
  get: { name: 'users.get', method: 'GET', path: '/user' },
  update: { name: 'users.update', method: 'PUT', path: '/user' },
  grantRole: { name: 'users.grantRole', method: 'PUT', path: '/users/:id/roles' },
  revokeRole: { name: 'users.revokeRole', method: 'DELETE', path: '/users/:id/roles' },
  uploadAvatar: { name: 'users.uploadAvatar', method: 'POST', path: '/user/upload' },
  friends: { name: 'users.friends', method: 'GET', path: '/user/friends' },
  addFriend: { name: 'users.addFriend', method: 'PUT', path: '/user/friends' },
  removeFriend: { name: 'users.removeFriend', method: 'DELETE', path: '/user/friends' },
} as const satisfies Record<string, RouteAddress>;

/** The largest avatar image POST /api/user/upload takes (413 above it). */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const AVATAR_TOO_LARGE_MESSAGE = 'The image must be 5 MB or smaller.';
