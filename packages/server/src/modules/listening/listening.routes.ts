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
          'Start answers `{token}`, for anonymous listeners too; the player then adds the token to its audio ' +
          'requests (`/media/audio/…&session=<token>`). End answers `{token, points, totalPoints, streak}`. ' +
          'What a session heard is the least of: the audio the media route served under the session (distinct ' +
          "bytes, as a share of the file's duration, and only of the file it is ended with), the wall-clock time " +
          "since it started, the file's duration and `listenedMs` when sent. A session whose listener may not play " +
          'the file hears nothing. Points: one per whole minute heard, not counting time before the end of the ' +
          "user's last credited session (overlapping sessions don't count twice). A play of the file counts when " +
          'at least 30 s (or half of a shorter track) was heard, once per listener and file an hour (anonymous ' +
          'listeners by address). A session started anonymously earns 0 points and only counts the play. A session ' +
          "earning at least one point keeps the daily streak, in the account's stored time zone: +1 when the last " +
          'counted day was yesterday, unchanged the same day, back to 1 after a gap. `timezone` on a signed-in ' +
          'start is stored on the account when it last changed more than a day ago, and ignored otherwise. Each ' +
          "session ends once: a second end is 409. Another user's or an unknown token is 404, as is a file the " +
          'listener cannot see.',
        body: sessionRequest,
        response: { 200: sessionResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { rateLimit: routeRateLimit(ctx.config, { max: 120, timeWindow: '1 minute' }) },
    },
    async (req) => {
      const { sessionToken, fileId, timezone, listenedMs } = req.body;
      if (sessionToken === undefined || fileId === undefined) return service.start(req.user, { timezone });
      return service.end(req.user, { sessionToken, fileId, timezone, listenedMs }, req.ip);
    },
  );
}
