import type {
  CreatePlaylistRequest,
  PlaylistUserInfo,
  UpdatePlaylistRequest,
} from '@mesmer/shared/api/playlists';
import { playlistsRoutes } from '@mesmer/shared/routes/playlists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { playlistKeys } from '../../api/playlists.ts';
import { call } from '../../lib/api-client.ts';

function useInvalidatePlaylists() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: playlistKeys.all });
}

/** POST /api/playlists */
export function useCreatePlaylist() {
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: (body: CreatePlaylistRequest) => call(playlistsRoutes.create, { body }),
    onSuccess: invalidate,
  });
}

/** PUT /api/playlists: any subset of the playlist's fields (adding a file sends id and fileIds). */
export function useUpdatePlaylist() {
  const client = useQueryClient();
  const invalidate = useInvalidatePlaylists();
  return useMutation({
    mutationFn: async (body: UpdatePlaylistRequest) =>
      (await call(playlistsRoutes.update, { body })).playlist,
    onSuccess: (saved) => {
      // The page shows the saved order at once instead of the old one until the refetch lands.
      client.setQueryData(playlistKeys.byUuid(saved.uuid), saved);
      return invalidate();
    },
  });
}

/** DELETE /api/playlist?id= */
export function useDeletePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(playlistsRoutes.delete, { query: { id } }),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: playlistKeys.userInfo(id) });
      return client.invalidateQueries({ queryKey: playlistKeys.lists() });
    },
  });
}

export type PlaylistRating = Pick<PlaylistUserInfo, 'id' | 'isLiked' | 'isDisliked' | 'isFavorite'>;

/** PUT /api/playlist/user: the viewer's new rating; favourite and liked lists change with it. */
export function useRatePlaylist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rating: PlaylistRating) => call(playlistsRoutes.rate, { body: rating }),
    onSuccess: (info) => {
      client.setQueryData(playlistKeys.userInfo(info.id), info);
      return client.invalidateQueries({ queryKey: playlistKeys.lists() });
    },
  });
}
