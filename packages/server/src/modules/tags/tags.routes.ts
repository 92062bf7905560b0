import { creatorsResponse, tagsResponse } from '@mesmer/shared/api/tags';
import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context.ts';
import { createFilesService } from '../files/files.service.ts';
import { createTagsRepo } from './tags.repo.ts';

export async function tagsRoutes(app: FastifyInstance, ctx: AppContext) {
  const tags = createTagsRepo(ctx.db);
  const files = createFilesService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/tags',
    {
      schema: {
        tags: ['files'],
        description: 'File types (fixed ids, 7 music and 9 AI music) and the tags files carry.',
        response: { 200: tagsResponse },
      },
    },
    async (req, reply) =>
      ctx.readCache.answer(req, reply, async () => ({
        fileTypes: FILE_TYPES.map(({ id, name }) => ({ id, name })),
        tags: await tags.listTags(),
      })),
  );
  api.get(
    '/creators',
    {
      schema: {
        tags: ['files'],
        description: 'Every user who authored a public file, by username.',
        response: { 200: creatorsResponse },
      },
    },
    async (req, reply) =>
      ctx.readCache.answer(req, reply, async () => ({ creators: await files.listCreators() })),
  );
}
