import { errorResponse } from '@mesmer/shared/api/common';
import {
  createPlaylistRequest,
  createPlaylistResponse,
  deletePlaylistQuery,
  getPlaylistUserQuery,
  listPlaylistsQuery,
  listPlaylistsResponse,
  playlistUserInfo,
  recentPlaylistsResponse,
  updatePlaylistRequest,
  updatePlaylistResponse,
  updatePlaylistUserRequest,
} from '@mesmer/shared/api/playlists';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { createPlaylistsService } from './playlists.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

export async function playlistsRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createPlaylistsService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/playlists',
    {
      schema: {
        tags: ['playlists'],
        description:
          "Playlists the viewer may see (public ones, the viewer's own, all for READ_ALL_FILES). `user` and " +
          '`creator` filter by creator id, `official` by the site owner (id 1), `series` by being a training-plan day, ' +
          '`favorited`/`liked` by the signed-in viewer (401 when signed out). With `uuid`: 404 when not visible. ' +
          '`files` leaves out private files of other uploaders; totals count what is shown (duration: enabled files only).',
        querystring: listPlaylistsQuery,
        response: { 200: listPlaylistsResponse, ...errors },
      },
    },
    async (req, reply) => ctx.readCache.answer(req, reply, () => service.list(req.user, req.query)),
  );

  api.get(
    '/playlists/recent',
    {
      schema: {
        tags: ['playlists'],
        description:
          'The 12 newest public community playlists (not core, not training-plan days), without files.',
        response: { 200: recentPlaylistsResponse },
      },
    },
    async (req, reply) => ctx.readCache.answer(req, reply, () => service.recent(req.user)),
  );

  api.post(
    '/playlists',
    {
      schema: {
        tags: ['playlists'],
        description: 'Creates an empty playlist. `isCore` only for the site owner (user id 1), else 403.',
        body: createPlaylistRequest,
        response: { 201: createPlaylistResponse, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(requireUser(req), req.body)),
  );

  api.put(
    '/playlists',
    {
      schema: {
        tags: ['playlists'],
        description:
          'Changes any subset of fields; only the creator (403 otherwise). `fileIds` replaces the ordered list and ' +
          'must name files the creator can see (400 otherwise); a file it adds must not be locked for the creator ' +
          '(403 naming it; locked files already in the list may stay). `disabledFileIds` must be a subset of the list.',
        body: updatePlaylistRequest,
        response: { 200: updatePlaylistResponse, ...errors },
      },
    },
    async (req) => ({ playlist: await service.update(requireUser(req), req.body) }),
  );

  api.delete(
    '/playlist',
    {
      schema: {
        tags: ['playlists'],
        description: 'Deletes a playlist; only its creator.',
        querystring: deletePlaylistQuery,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.delete(requireUser(req), req.query.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/playlist/user',
    {
      schema: {
        tags: ['playlists'],
        description:
          "The viewer's like, dislike and favourite of a playlist, with its counts (all false when signed out).",
        querystring: getPlaylistUserQuery,
        response: { 200: playlistUserInfo, ...errors },
      },
    },
    async (req) => service.userInfo(req.user, req.query.id),
  );

  api.put(
    '/playlist/user',
    {
      schema: {
        tags: ['playlists'],
        description:
          'Sets like, dislike (mutually exclusive) and favourite. Liking and disliking need a public, non-core ' +
          "playlist that is neither the viewer's own nor the site owner's (403 otherwise); favourite works on any " +
          'playlist the viewer can see.',
        body: updatePlaylistUserRequest,
        response: { 200: playlistUserInfo, ...errors },
      },
    },
    async (req) => service.rate(requireUser(req), req.body),
  );
}
