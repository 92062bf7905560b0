import type {
  CreatePlaylistRequest,
  createPlaylistResponse,
  ListPlaylistsResponse,
  listPlaylistsQuery,
  Playlist,
  PlaylistUserInfo,
  UpdatePlaylistRequest,
  updatePlaylistResponse,
} from '@mesmer/shared/api/playlists';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../lib/api-client.ts';

/** GET /api/playlists parameters as the server reads them; left-out ones take the server's defaults. */
export type PlaylistsParams = Partial<z.output<typeof listPlaylistsQuery>>;

/** Every playlist read sits under this key, so one invalidation refreshes lists and pages. */
export const PLAYLISTS_KEY = 'playlists';

/** GET /api/playlists: one page of playlists; the previous page stays on screen while the next loads. */
export function playlistsQuery(query: PlaylistsParams, options: { enabled?: boolean } = {}) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'list', query],
    queryFn: ({ signal }) => api<ListPlaylistsResponse>('/playlists', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /api/playlists?uuid=: one playlist with its files; null when the answer is empty. */
export function playlistByUuidQuery(uuid: string) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'uuid', uuid],
    queryFn: async ({ signal }): Promise<Playlist | null> =>
      (await api<ListPlaylistsResponse>('/playlists', { query: { uuid }, signal })).playlists[0] ?? null,
  });
}

/** GET /api/playlist/user: the viewer's like, dislike and favourite of one playlist. */
export function playlistUserQuery(id: number, enabled: boolean) {
  return queryOptions({
    queryKey: [PLAYLISTS_KEY, 'user', id],
    queryFn: ({ signal }) => api<PlaylistUserInfo>('/playlist/user', { query: { id }, signal }),
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
    mutationFn: (body: CreatePlaylistRequest) =>
      api<z.infer<typeof createPlaylistResponse>>('/playlists', { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

/** PUT /api/playlists: any subset of the playlist's fields (adding a file sends id and fileIds). */
export function useUpdatePlaylist() {
  const client = useQueryClient();
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: async (body: UpdatePlaylistRequest) =>
      (await api<z.infer<typeof updatePlaylistResponse>>('/playlists', { method: 'PUT', body })).playlist,
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
    mutationFn: (id: number) => api<void>('/playlist', { method: 'DELETE', query: { id } }),
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
    mutationFn: (rating: PlaylistRating) =>
      api<PlaylistUserInfo>('/playlist/user', { method: 'PUT', body: rating }),
    onSuccess: (info) => {
      client.setQueryData([PLAYLISTS_KEY, 'user', info.id], info);
      return client.invalidateQueries({ queryKey: [PLAYLISTS_KEY, 'list'] });
    },
  });
}
