import { seriesApi } from '@mesmer/shared/api/series';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/auth.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { SeriesService } from './series.service.ts';

export async function seriesRoutes(
  app: FastifyInstance,
  { series: service, readCache }: { series: SeriesService; readCache: ReadCache },
) {
  registerRoute(app, seriesApi.get, async (req, reply) =>
    // A signed-in user's plans carry their own progress: computed for them each time.
    readCache.answer(req, reply, { reads: ['files', 'playlists'], personal: req.user !== null }, async () => {
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
