import { errorResponse } from '@mesmer/shared/api/common';
import { listFilesQuery, listFilesResponse } from '@mesmer/shared/api/files';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';
import { createFilesService } from './files.service.ts';

export async function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createFilesService(ctx);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/files',
    {
      schema: {
        tags: ['files'],
        description:
          'Files visible to the viewer, filtered, sorted and paged. With `uuid`: that one file (404 when not visible). ' +
          'Locked files come with `isLocked: true` and no audio, script or haptics URL; `showLocked=false` ' +
          "(or the viewer's hideLockedFiles setting) leaves them out. `trigger` lists files that use a trigger " +
          'without training it, `trainsTrigger` files that train it.',
        querystring: listFilesQuery,
        response: { 200: listFilesResponse, 401: errorResponse, 404: errorResponse },
      },
    },
    async (req, reply) => ctx.readCache.answer(req, reply, () => service.list(req.user, req.query)),
  );
}
