import { coreSessionsQuery } from '../domain/library-display.ts';
import { queryString, routePath } from '../routes/address.ts';
import { filesRoutes } from '../routes/files.ts';
import { playlistsRoutes } from '../routes/playlists.ts';

/**
 * The call a page makes first, by its route pattern, as an address under /api. For a visitor past the
 * 18+ gate the server starts it with the page's HTML (a fetch preload, decision 040); the page's
 * `firstQueries` make this very call, which the browser then answers from the preload (the web's
 * routes.test.tsx checks that they agree).
 */
export const pageFirstRequests: Readonly<Record<string, (params: Record<string, string>) => string>> = {
  '/': () => `${routePath(playlistsRoutes.list)}${queryString(coreSessionsQuery(0))}`,
  '/file/:uuid': ({ uuid }) => `${routePath(filesRoutes.list)}${queryString({ uuid })}`,
  '/playlist/:uuid': ({ uuid }) => `${routePath(playlistsRoutes.list)}${queryString({ uuid })}`,
};
