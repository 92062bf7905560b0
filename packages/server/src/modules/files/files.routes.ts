import { filesApi } from '@mesmer/shared/api/files';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import type { ReadCache } from '../../platform/read-cache.ts';
import { fileEditingRoutes } from './file-editing.routes.ts';
import type { FileEditingService } from './file-editing.service.ts';
import type { FilePeaksService } from './file-peaks.service.ts';
import type { FilesService } from './files.service.ts';

export async function filesRoutes(
  app: FastifyInstance,
  {
    files,
    fileEditing,
    filePeaks,
    readCache,
  }: {
    files: FilesService;
    fileEditing: FileEditingService;
    filePeaks: FilePeaksService;
    readCache: ReadCache;
  },
) {
  registerRoute(app, filesApi.list, async (req, reply) => {
    const viewer = await files.listViewer(req.user, req.query);
    return readCache.answer(req, reply, { reads: ['files'], viewer }, () =>
      files.list(req.user, viewer, req.query),
    );
  });
  await fileEditingRoutes(app, fileEditing, filePeaks);
}
