import { z } from 'zod';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { playlistsRoutes } from '../routes/playlists.ts';
import { errorResponse, id, idList, pagingQuery, queryBool, queryId, text, userRef } from './common.ts';
import { defineRoute, noContent } from './contract.ts';
import { audioFile } from './files.ts';

export const expLevel = z.number().int().min(1).max(4);

export const playlistFile = audioFile.extend({
  /** Skipped in playback and not counted in the playlist's duration. */
  disabled: z.boolean(),
});
export type PlaylistFile = z.infer<typeof playlistFile>;

export const playlist = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  expLevel,
  isPublic: z.boolean(),
  isCore: z.boolean(),
  creator: userRef,
  dateCreated: z.string(),
  /** Ordered file ids (every file, enabled or not). */
  fileIds: z.array(z.number().int()),
  /** The files in order; empty when `simple` was asked for. Hidden files of other uploaders are left out. */
  files: z.array(playlistFile),
  fileCount: z.number().int(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  favorites: z.number().int(),
  /** Total milliseconds of the enabled files. */
  totalDuration: z.number().int(),
  /** Share of files with haptics, 0-100, rounded down. */
  hapticsPercent: z.number().int(),
  /** Some file needs a membership tier (patron badge). */
  hasPatreonFiles: z.boolean(),
  warnings: z.array(z.string()),
  triggers: z.array(z.object({ id: z.number().int(), uuid: z.string(), name: z.string() })),
});
export type Playlist = z.infer<typeof playlist>;

export const PLAYLIST_SORTS = ['datecreated', 'likes', 'favorites', 'name', 'explevel'] as const;

/** GET /api/playlists */
export const listPlaylistsQuery = z.object({
  ...pagingQuery(12),
  ids: idList().optional(),
  uuid: z.uuid().optional(),
  /** Playlists created by this user id. */
  user: queryId.optional(),
  creator: queryId.optional(),
  core: queryBool.optional(),
  /** false: leave out playlists that are days of a training plan; true: only those. */
  series: queryBool.optional(),
  /** Made by the site owner (user id 1). */
  official: queryBool.optional(),
  public: queryBool.optional(),
  isPublic: queryBool.optional(),
  favorited: queryBool.optional(),
  liked: queryBool.optional(),
  sort: z.enum(PLAYLIST_SORTS).default('datecreated'),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
  searchQuery: text(TEXT_LIMITS.search).optional(),
  /** Playlists that contain every one of these file ids. */
  includeFiles: idList().optional(),
  /** Leave `files` empty (lists); counts and totals are still filled. */
  simple: queryBool.default(false),
  expLevels: idList().optional(),
  patreonToken: text(TEXT_LIMITS.token).optional(),
});
export type ListPlaylistsQuery = z.input<typeof listPlaylistsQuery>;
export const listPlaylistsResponse = z.object({ playlists: z.array(playlist), totalItems: z.number().int() });
export type ListPlaylistsResponse = z.infer<typeof listPlaylistsResponse>;

/** GET /api/playlists/recent: the newest public community playlists (12). */
export const recentPlaylistsResponse = z.object({ playlists: z.array(playlist) });

/** POST /api/playlists → 201 */
export const createPlaylistRequest = z.object({
  name: text(TEXT_LIMITS.playlistName).trim().min(1, 'Name is required.'),
  description: text(TEXT_LIMITS.description).default(''),
  expLevel,
  isCore: z.boolean().default(false),
  /** Defaults to isCore: core playlists start public, others private until the creator shares them. */
  isPublic: z.boolean().optional(),
});
export type CreatePlaylistRequest = z.input<typeof createPlaylistRequest>;
export const createPlaylistResponse = z.object({ id: z.number().int(), uuid: z.string() });

/** PUT /api/playlists: any subset; `fileIds` replaces the order (adding a file sends id and fileIds). */
export const updatePlaylistRequest = z.object({
  id,
  name: text(TEXT_LIMITS.playlistName).trim().min(1, 'Name is required.').optional(),
  description: text(TEXT_LIMITS.description).optional(),
  expLevelId: expLevel.optional(),
  isPublic: z.boolean().optional(),
  fileIds: z.array(id).max(500).optional(),
  /** Subset of fileIds to skip in playback. */
  disabledFileIds: z.array(id).max(500).optional(),
});
export type UpdatePlaylistRequest = z.infer<typeof updatePlaylistRequest>;
export const updatePlaylistResponse = z.object({ playlist });

/** DELETE /api/playlist?id= → 204 */
export const deletePlaylistQuery = z.object({ id: queryId });

/** GET /api/playlist/user?id= and PUT /api/playlist/user */
export const playlistUserInfo = z.object({
  id: z.number().int(),
  isLiked: z.boolean(),
  isDisliked: z.boolean(),
  isFavorite: z.boolean(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  /** Likes / (likes + dislikes) × 100, or null when nobody rated. */
  likeRatio: z.number().nullable(),
});
export type PlaylistUserInfo = z.infer<typeof playlistUserInfo>;
export const getPlaylistUserQuery = z.object({ id: queryId });
export const updatePlaylistUserRequest = z.object({
  id,
  isLiked: z.boolean().optional(),
  isDisliked: z.boolean().optional(),
  isFavorite: z.boolean().optional(),
});

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export const playlistsApi = {
  list: defineRoute(playlistsRoutes.list, {
    tags: ['playlists'],
    description:
      "Playlists the viewer may see (public ones, the viewer's own, all for READ_ALL_FILES). `user` and " +
      '`creator` filter by creator id, `official` by the site owner (id 1), `series` by being a training-plan day, ' +
      '`favorited`/`liked` by the signed-in viewer (401 when signed out). With `uuid`: 404 when not visible. ' +
      '`files` leaves out private files of other uploaders; totals count what is shown (duration: enabled files only).',
    query: listPlaylistsQuery,
    responses: { 200: listPlaylistsResponse, ...errors },
  }),
  recent: defineRoute(playlistsRoutes.recent, {
    tags: ['playlists'],
    description:
      'The 12 newest public community playlists (not core, not training-plan days), without files.',
    responses: { 200: recentPlaylistsResponse },
  }),
  create: defineRoute(playlistsRoutes.create, {
    tags: ['playlists'],
    description: 'Creates an empty playlist. `isCore` only for the site owner (user id 1), else 403.',
    body: createPlaylistRequest,
    responses: { 201: createPlaylistResponse, ...errors },
  }),
  update: defineRoute(playlistsRoutes.update, {
    tags: ['playlists'],
    description:
      'Changes any subset of fields; only the creator (403 otherwise), or staff holding WRITE_ALL_FILES for a ' +
      'playlist a deleted account handed over (the “Former member” account’s, private until they publish it). ' +
      '`fileIds` replaces the ordered list and ' +
      'must name files the creator can see (400 otherwise); a file it adds must not be locked for the creator ' +
      '(403 naming it; locked files already in the list may stay). `disabledFileIds` must be a subset of the list.',
    body: updatePlaylistRequest,
    responses: { 200: updatePlaylistResponse, ...errors },
  }),
  delete: defineRoute(playlistsRoutes.delete, {
    tags: ['playlists'],
    description: 'Deletes a playlist; only its creator.',
    query: deletePlaylistQuery,
    responses: { 204: noContent, ...errors },
  }),
  userInfo: defineRoute(playlistsRoutes.userInfo, {
    tags: ['playlists'],
    description:
      "The viewer's like, dislike and favourite of a playlist, with its counts (all false when signed out).",
    query: getPlaylistUserQuery,
    responses: { 200: playlistUserInfo, ...errors },
  }),
  rate: defineRoute(playlistsRoutes.rate, {
    tags: ['playlists'],
    description:
      'Sets like, dislike (mutually exclusive) and favourite. Liking and disliking need a public, non-core ' +
      "playlist that is neither the viewer's own nor the site owner's (403 otherwise); favourite works on any " +
      'playlist the viewer can see.',
    body: updatePlaylistUserRequest,
    responses: { 200: playlistUserInfo, ...errors },
  }),
};
