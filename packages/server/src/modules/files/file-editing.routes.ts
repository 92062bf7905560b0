import { attachmentFields, filesApi } from '@mesmer/shared/api/files';
import { ATTACHMENT_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_BYTES } from '@mesmer/shared/domain/attachments';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerRoute } from '../../platform/contract-route.ts';
import { AppError, BadRequest } from '../../platform/errors.ts';
import { acceptSmallForms, type SmallFormReader } from '../../platform/small-form.ts';
import { CuesChanged, type FileEditingService } from './file-editing.service.ts';
import type { FilePeaksService } from './file-peaks.service.ts';

/** Room for the form's fields and boundaries around the largest attachment. */
const ATTACHMENT_BODY_LIMIT = MAX_ATTACHMENT_BYTES + 64 * 1024;
/** The cue editor's save: the largest cue file, with room for the body around it. */
const CUES_BODY_LIMIT = MAX_ATTACHMENT_BYTES + 64 * 1024;

class AttachmentTooLarge extends AppError {
  constructor() {
    super(413, ATTACHMENT_TOO_LARGE_MESSAGE);
  }
}

/** The fields and the `file` part of an attachment form (read whole, bounded). */
async function readAttachmentForm(req: FastifyRequest, readForm: SmallFormReader) {
  const form = await readForm(req, 'body', 'must be multipart/form-data with fileId, kind and a file.');
  const fields = attachmentFields.safeParse({ fileId: form.get('fileId'), kind: form.get('kind') });
  if (!fields.success) {
    const issue = fields.error.issues[0];
    throw new BadRequest(issue.path.join('.'), issue.message);
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) throw new BadRequest('file', 'is required');
  return { fields: fields.data, bytes: Buffer.from(await file.arrayBuffer()) };
}

/** Whether an If-None-Match header names `etag`. */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*') ?? false;

/** Creating, editing and deleting files and their attachments; waveform, the cue editor's calls, upload options. */
export async function fileEditingRoutes(
  app: FastifyInstance,
  service: FileEditingService,
  peaks: FilePeaksService,
) {
  registerRoute(app, filesApi.uploadOptions, async (req) => service.uploadOptions(req.user));
  registerRoute(app, filesApi.create, async (req) => service.create(req.user, req.body));
  registerRoute(app, filesApi.update, async (req) => service.update(req.user, req.body));
  registerRoute(app, filesApi.remove, async (req, reply) => {
    await service.remove(req.user, req.query.id);
    return reply.code(204).send(null);
  });
  registerRoute(app, filesApi.detach, async (req, reply) => {
    await service.detach(req.user, req.query);
    return reply.code(204).send(null);
  });
  registerRoute(app, filesApi.waveform, async (req) => service.waveform(req.user, req.query.id));
  registerRoute(app, filesApi.peaks, async (req, reply) => {
    const answer = await peaks.peaks(req.user, req.query);
    // The peaks of a file never change (its audio does not); who may read them is checked first.
    if (!answer.etag) return reply.header('cache-control', 'no-store').send(answer.peaks);
    reply.header('etag', answer.etag).header('cache-control', 'private, max-age=3600');
    if (matches(req.headers['if-none-match'], answer.etag)) return reply.code(304).send(null);
    return answer.peaks;
  });
  registerRoute(app, filesApi.cues, async (req) => service.cues(req.user, req.query.fileId));
  registerRoute(
    app,
    filesApi.saveCues,
    async (req, reply) => {
      try {
        return await service.saveCues(req.user, req.body);
      } catch (err) {
        // The one 409 that says more than its message: the revision the editor has not seen.
        if (err instanceof CuesChanged)
          return reply.code(409).send({ error: err.message, revision: err.revision });
        throw err;
      }
    },
    { bodyLimit: CUES_BODY_LIMIT },
  );

  // Attachments are small: the form is read whole (bounded) in a context of its own, so its
  // multipart parser is not the one other routes (chunked uploads) use.
  await app.register(async (attachments) => {
    const readForm = await acceptSmallForms(
      attachments,
      ATTACHMENT_BODY_LIMIT,
      () => new AttachmentTooLarge(),
    );
    registerRoute(attachments, filesApi.attach, async (req) => {
      const { fields, bytes } = await readAttachmentForm(req, readForm);
      return service.attach(req.user, fields, bytes);
    });
  });
}
