import { tagsApi } from '@mesmer/shared/api/tags';
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { createFilesService } from '../files/files.service.ts';
import { createTagsService } from './tags.service.ts';

export async function tagsRoutes(app: FastifyInstance, ctx: AppContext) {
  const tags = createTagsService(ctx);
  const files = createFilesService(ctx);
  registerRoute(app, tagsApi.list, async (req, reply) =>
    ctx.readCache.answer(req, reply, async () => ({
      fileTypes: FILE_TYPES.map(({ id, name }) => ({ id, name })),
      tags: await tags.list(),
    })),
  );
  registerRoute(app, tagsApi.creators, async (req, reply) =>
    ctx.readCache.answer(req, reply, async () => ({ creators: await files.listCreators() })),
  );
}
