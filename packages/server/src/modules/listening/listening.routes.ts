import { listeningApi } from '@mesmer/shared/api/listening';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { routeRateLimit } from '../../platform/rate-limit.ts';
import type { ListeningService } from './listening.service.ts';

export async function listeningRoutes(
  app: FastifyInstance,
  { listening: service, config }: { listening: ListeningService; config: Config },
) {
  registerRoute(
    app,
    listeningApi.session,
    async (req) => {
      const { sessionToken, fileId, timezone, listenedMs, source, toyConnected } = req.body;
      if (sessionToken === undefined || fileId === undefined) {
        return service.start(req.user, { timezone, source });
      }
      return service.end(req.user, { sessionToken, fileId, timezone, listenedMs, toyConnected }, req.ip);
    },
    { config: { rateLimit: routeRateLimit(config, { max: 120, timeWindow: '1 minute' }) } },
  );
  registerRoute(app, listeningApi.offline, async (req) => service.creditOffline(req.user, req.body), {
    config: { rateLimit: routeRateLimit(config, { max: 120, timeWindow: '1 minute' }) },
  });
}
