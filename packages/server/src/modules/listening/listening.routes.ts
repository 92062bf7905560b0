import { errorResponse } from '@mesmer/shared/api/common';
import { sessionRequest, sessionResponse } from '@mesmer/shared/api/listening';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';
import { routeRateLimit } from '../../platform/rate-limit.ts';
import { createListeningService } from './listening.service.ts';

export async function listeningRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createListeningService(ctx);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/session',
    {
      schema: {
        tags: ['listening'],
        summary: 'Start ({timezone}) or end ({sessionToken, timezone, fileId}) an audio listening session',
        description:
          'Start answers `{token}`, for anonymous listeners too. End answers `{token, points, totalPoints, streak}` ' +
          'and counts one play of the file. The server decides the points: one per whole minute, never more than ' +
          "the wall-clock time since the session started (or since the user's last credited session ended, so " +
          "overlapping sessions don't count twice), the file's duration, or `listenedMs` when sent. A session " +
          'started anonymously earns 0 points and only counts the play. A session earning at least one point ' +
          "keeps the daily streak, in the time zone sent (else the account's): +1 when the last counted day was " +
          'yesterday, unchanged the same day, back to 1 after a gap. Each session ends once: a second end is 409. ' +
          "Another user's or an unknown token is 404, as is a file the listener cannot see.",
        body: sessionRequest,
        response: { 200: sessionResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { rateLimit: routeRateLimit(ctx.config, { max: 120, timeWindow: '1 minute' }) },
    },
    async (req) => {
      const { sessionToken, fileId, timezone, listenedMs } = req.body;
      if (sessionToken === undefined || fileId === undefined) return service.start(req.user, { timezone });
      return service.end(req.user, { sessionToken, fileId, timezone, listenedMs });
    },
  );
}
