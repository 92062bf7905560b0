import { uploadsApi } from '@mesmer/shared/api/uploads';
import { UPLOAD_CHUNK_BYTES } from '@mesmer/shared/domain/upload-limits';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import { BadRequest } from '../../platform/errors.ts';
import { FORM_NEEDED, readChunkForm } from './upload-form.ts';
import type { UploadsService } from './uploads.service.ts';

const MULTIPART = 'multipart/form-data';

/** POST/GET/DELETE /api/files/upload and GET /api/files/uploads (docs/decisions/018-uploads-and-storage.md). */
export async function uploadsRoutes(app: FastifyInstance, service: UploadsService) {
  registerRoute(app, uploadsApi.status, async (req) => service.status(req.user, req.query.uuid));
  registerRoute(app, uploadsApi.list, async (req) => ({ uploads: await service.list(req.user) }));
  registerRoute(app, uploadsApi.cancel, async (req, reply) => {
    await service.cancel(req.user, req.query.uuid);
    return reply.code(204).send(null);
  });

  // The chunk route in a context of its own whose multipart parser leaves the body unread: the
  // chunk streams from the socket to storage (the attachments' parser reads small forms whole).
  await app.register(async (chunks) => {
    if (chunks.hasContentTypeParser(MULTIPART)) chunks.removeContentTypeParser(MULTIPART);
    chunks.addContentTypeParser(
      MULTIPART,
      { bodyLimit: UPLOAD_CHUNK_BYTES + 1024 * 1024 },
      (_req, payload, done) => done(null, payload),
    );
    registerRoute(chunks, uploadsApi.chunk, async (req) => {
      // Who may upload is known before a byte of the body is read.
      service.requireUploader(req.user);
      if (!req.headers['content-type']?.startsWith(MULTIPART) || !req.body)
        throw new BadRequest('body', FORM_NEEDED);
      const { fields, chunk } = await readChunkForm(req, (f, body, size, sizeField) =>
        service.receiveChunk(req.user, f, body, size, sizeField),
      );
      if (!chunk) await service.complete(req.user, fields.uuid);
      return { data: { uuid: fields.uuid } };
    });
  });
}
