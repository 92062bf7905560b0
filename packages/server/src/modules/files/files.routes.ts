import { filesApi } from '@mesmer/shared/api/files';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { fileEditingRoutes } from './file-editing.routes.ts';
import { createFilesService } from './files.service.ts';

export async function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createFilesService(ctx);
  registerRoute(app, filesApi.list, async (req, reply) =>
    ctx.readCache.answer(req, reply, () => service.list(req.user, req.query)),
  );
  await fileEditingRoutes(app, ctx);
}
