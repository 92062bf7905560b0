import type { RouteAddress } from './address.ts';

/** The addresses of playlistsApi's calls (their schemas: api/playlists.ts). */
export const playlistsRoutes = {
  list: { name: 'playlists.list', method: 'GET', path: '/playlists' },
  recent: { name: 'playlists.recent', method: 'GET', path: '/playlists/recent' },
  create: { name: 'playlists.create', method: 'POST', path: '/playlists' },
  update: { name: 'playlists.update', method: 'PUT', path: '/playlists' },
  delete: { name: 'playlists.delete', method: 'DELETE', path: '/playlist' },
  userInfo: { name: 'playlists.userInfo', method: 'GET', path: '/playlist/user' },
  rate: { name: 'playlists.rate', method: 'PUT', path: '/playlist/user' },
} as const satisfies Record<string, RouteAddress>;
