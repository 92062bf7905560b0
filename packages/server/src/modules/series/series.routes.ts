import { seriesApi } from '@mesmer/shared/api/series';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createSeriesService } from './series.service.ts';

export async function seriesRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createSeriesService(ctx);
  registerRoute(app, seriesApi.get, async (req, reply) =>
    ctx.readCache.answer(req, reply, async () => {
      const { id, uuid, includePlaylists } = req.query;
      if (id !== undefined || uuid !== undefined) {
        return { series: await service.findOne(req.user, { id, uuid }, includePlaylists) };
      }
      return { series: await service.list(req.user, includePlaylists) };
    }),
  );
  registerRoute(app, seriesApi.savePosition, async (req) =>
    service.savePosition(requireUser(req), req.body.id, req.body.playlistIndex),
  );
}
