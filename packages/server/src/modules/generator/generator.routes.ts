import { errorResponse } from '@mesmer/shared/api/common';
import { generateQuery, generateResponse } from '@mesmer/shared/api/generator';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';
import { createGeneratorService } from './generator.service.ts';

export async function generatorRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createGeneratorService(ctx);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/playlist/generate',
    {
      schema: {
        tags: ['playlists'],
        description:
          'A random playlist (docs/decisions/004-playlist-generator.md): induction first, awakener last, a body of ' +
          'the chosen types weighted toward includeTriggers, nothing with a hideTriggers trigger, no locked files, ' +
          'at most maxDuration ms. 404 "No playlist could be generated with the current settings." when nothing fits.',
        querystring: generateQuery,
        response: { 200: generateResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (req) => service.generate(req.user, req.query),
  );
}
