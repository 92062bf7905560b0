import { z } from 'zod';
import { seriesRoutes } from '../routes/series.ts';
import { errorResponse, id, int, queryBool, queryId, userRef } from './common.ts';
import { defineRoute } from './contract.ts';
import { playlist } from './playlists.ts';

/** A training plan: one playlist per day, with the viewer's progress. */
export const series = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  description: z.string(),
  creator: userRef,
  playlistCount: z.number().int(),
  /** 1-based: days before this one are done. 1 for signed-out viewers or no progress. */
  position: z.number().int(),
  /** Filled when includePlaylists is true. */
  playlists: z.array(playlist),
});
export type Series = z.infer<typeof series>;

/** GET /api/series: the list, or one plan by `id` or `uuid` (404 when none). */
export const getSeriesQuery = z.object({
  id: queryId.optional(),
  uuid: z.uuid().optional(),
  includePlaylists: queryBool.default(false),
});
export const listSeriesResponse = z.object({ series: z.array(series) });
export const oneSeriesResponse = z.object({ series });
export type OneSeriesResponse = z.infer<typeof oneSeriesResponse>;

/** PUT /api/userseries: save progress (1-based position, capped at playlistCount + 1). */
export const updateUserSeriesRequest = z.object({
  id,
  playlistIndex: int(1),
});
export const updateUserSeriesResponse = z.object({ id: z.number().int(), position: z.number().int() });

export const seriesApi = {
  get: defineRoute(seriesRoutes.get, {
    tags: ['training plans'],
    description:
      "Training plans with the viewer's position (1 when signed out or not started); one plan with `id` or " +
      '`uuid` (404 "Training plan not found."). `includePlaylists` fills each day\'s playlist.',
    query: getSeriesQuery,
    responses: { 200: z.union([listSeriesResponse, oneSeriesResponse]), 404: errorResponse },
  }),
  savePosition: defineRoute(seriesRoutes.savePosition, {
    tags: ['training plans'],
    description: "Saves the signed-in user's position in a plan (capped at playlistCount + 1).",
    body: updateUserSeriesRequest,
    responses: { 200: updateUserSeriesResponse, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
};
