import {
  type CreatePlaylistRequest,
  type listPlaylistsQuery,
  type Playlist,
  type PlaylistUserInfo,
  playlistsApi,
  type UpdatePlaylistRequest,
} from '@mesmer/shared/api/playlists';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../lib/api-client.ts';

/** GET /api/playlists parameters as the server reads them; left-out ones take the server's defaults. */
export type PlaylistsParams = Partial<z.output<typeof listPlaylistsQuery>>;

/** Every playlist read sits under this key, so one invalidation refreshes lists and pages. */
export const PLAYLISTS_KEY = 'playlists';

/** GET /api/playlists: one page of playlists; the previous page stays on screen while the next loads. */
export function playlistsQuery(query: PlaylistsParams, options: { enabled?: boolean } = {}) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'list', query],
    queryFn: ({ signal }) => call(playlistsApi.list, { query, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /api/playlists?uuid=: one playlist with its files; null when the answer is empty. */
export function playlistByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'uuid', uuid],
    queryFn: async ({ signal }): Promise<Playlist | null> =>
      (await call(playlistsApi.list, { query: { uuid }, signal })).playlists[0] ?? null,
  });
}

/** GET /api/playlist/user: the viewer's like, dislike and favourite of one playlist. */
export function playlistUserQuery(id: number, enabled: boolean) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'user', id],
    queryFn: ({ signal }) => call(playlistsApi.userInfo, { query: { id }, signal }),
    enabled,
  });
}

function useInvalidatePlaylists() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [PLAYLISTS_KEY] });
}

/** POST /api/playlists */
export function useCreatePlaylist() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: (body: CreatePlaylistRequest) => call(playlistsApi.create, { body }),
    onSuccess: invalidate,
  });
}

/** PUT /api/playlists: any subset of the playlist's fields (adding a file sends id and fileIds). */
export function useUpdatePlaylist() {
  const client = useQueryClient();
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: async (body: UpdatePlaylistRequest) => (await call(playlistsApi.update, { body })).playlist,
    onSuccess: (saved) => {
      // The page shows the saved order at once instead of the old one until the refetch lands.
      client.setQueryData([PLAYLISTS_KEY, 'uuid', saved.uuid], saved);
      return invalidate();
    },
  });
}

/** DELETE /api/playlist?id= */
export function useDeletePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(playlistsApi.delete, { query: { id } }),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: [PLAYLISTS_KEY, 'user', id] });
      return client.invalidateQueries({ queryKey: [PLAYLISTS_KEY, 'list'] });
    },
  });
}

export type PlaylistRating = Pick<PlaylistUserInfo, 'id' | 'isLiked' | 'isDisliked' | 'isFavorite'>;

/** PUT /api/playlist/user: the viewer's new rating; favourite and liked lists change with it. */
export function useRatePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rating: PlaylistRating) => call(playlistsApi.rate, { body: rating }),
    onSuccess: (info) => {
      client.setQueryData([PLAYLISTS_KEY, 'user', info.id], info);
      return client.invalidateQueries({ queryKey: [PLAYLISTS_KEY, 'list'] });
    },
  });
}
