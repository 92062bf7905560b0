import { tagsApi } from '@mesmer/shared/api/tags';
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import type { FilesService } from '../files/files.service.ts';
import type { TagsService } from './tags.service.ts';

export async function tagsRoutes(
  app: FastifyInstance,
  { tags, files, readCache }: { tags: TagsService; files: FilesService; readCache: ReadCache },
) {
  registerRoute(app, tagsApi.list, async (req, reply) =>
    readCache.answer(req, reply, { reads: ['files'] }, async () => ({
      fileTypes: FILE_TYPES.map(({ id, name }) => ({ id, name })),
      tags: await tags.list(),
    })),
  );
  registerRoute(app, tagsApi.creators, async (req, reply) =>
    readCache.answer(req, reply, { reads: ['files'] }, async () => ({
      creators: await files.listCreators(),
    })),
  );
}
