import type { listPlaylistsQuery, Playlist } from '@mesmer/shared/api/playlists';
import { playlistsRoutes } from '@mesmer/shared/routes/playlists';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../lib/api-client.ts';

/** GET /api/playlists parameters as the server reads them; left-out ones take the server's defaults. */
export type PlaylistsParams = Partial<z.output<typeof listPlaylistsQuery>>;

/** Every playlist read sits under `all`, so one invalidation refreshes lists and pages. */
export const playlistKeys = {
  all: ['playlists'] as const,
  lists: () => [...playlistKeys.all, 'list'] as const,
  list: (query: PlaylistsParams) => [...playlistKeys.lists(), query] as const,
  byUuid: (uuid: string) => [...playlistKeys.all, 'uuid', uuid] as const,
  /** The viewer's rating of one playlist. */
  userInfo: (id: number) => [...playlistKeys.all, 'user', id] as const,
};

/** GET /api/playlists: one page of playlists; the previous page stays on screen while the next loads. */
export function playlistsQuery(query: PlaylistsParams, options: { enabled?: boolean } = {}) {
  return queryOptions({
    queryKey: playlistKeys.list(query),
    queryFn: ({ signal }) => call(playlistsRoutes.list, { query, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /api/playlists?uuid=: one playlist with its files; null when the answer is empty. */
export function playlistByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: playlistKeys.byUuid(uuid),
    queryFn: async ({ signal }): Promise<Playlist | null> =>
      (await call(playlistsRoutes.list, { query: { uuid }, signal })).playlists[0] ?? null,
  });
}

/** GET /api/playlist/user: the viewer's like, dislike and favourite of one playlist. */
export function playlistUserQuery(id: number, enabled: boolean) {
  return queryOptions({
    queryKey: playlistKeys.userInfo(id),
    queryFn: ({ signal }) => call(playlistsRoutes.userInfo, { query: { id }, signal }),
    enabled,
  });
}
