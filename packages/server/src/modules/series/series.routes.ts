import { errorResponse } from '@mesmer/shared/api/common';
import {
  getSeriesQuery,
  listSeriesResponse,
  oneSeriesResponse,
  updateUserSeriesRequest,
  updateUserSeriesResponse,
} from '@mesmer/shared/api/series';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { createSeriesService } from './series.service.ts';

export async function seriesRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createSeriesService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/series',
    {
      schema: {
        tags: ['training plans'],
        description:
          "Training plans with the viewer's position (1 when signed out or not started); one plan with `id` or " +
          '`uuid` (404 "Training plan not found."). `includePlaylists` fills each day\'s playlist.',
        querystring: getSeriesQuery,
        response: { 200: z.union([listSeriesResponse, oneSeriesResponse]), 404: errorResponse },
      },
    },
    async (req, reply) =>
      ctx.readCache.answer(req, reply, async () => {
        const { id, uuid, includePlaylists } = req.query;
        if (id !== undefined || uuid !== undefined) {
          return { series: await service.findOne(req.user, { id, uuid }, includePlaylists) };
        }
        return { series: await service.list(req.user, includePlaylists) };
      }),
  );
  api.put(
    '/userseries',
    {
      schema: {
        tags: ['training plans'],
        description: "Saves the signed-in user's position in a plan (capped at playlistCount + 1).",
        body: updateUserSeriesRequest,
        response: {
          200: updateUserSeriesResponse,
          400: errorResponse,
          401: errorResponse,
          404: errorResponse,
        },
      },
    },
    async (req) => service.savePosition(requireUser(req), req.body.id, req.body.playlistIndex),
  );
}
