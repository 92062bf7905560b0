import type { Readable } from 'node:stream';
import { UPLOAD_MULTIPART_LIMITS, uploadChunkFields, uploadsApi } from '@mesmer/shared/api/uploads';
import { UPLOAD_CHUNK_BYTES } from '@mesmer/shared/domain/upload-limits';
import busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerRoute } from '../../platform/contract-route.ts';
import { BadRequest } from '../../platform/errors.ts';
import { type ChunkFields, createUploadsService } from './uploads.service.ts';

const MULTIPART = 'multipart/form-data';
/** Pieces of the chunk in flight: larger than the streams' 16 KiB default, for fewer, larger writes. */
const STREAM_HWM = 1024 * 1024;
const FORM_NEEDED = 'must be multipart/form-data with the upload fields and a chunk.';

function parseFields(raw: Record<string, string>): ChunkFields {
  const parsed = uploadChunkFields.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(issue.path.join('.') || 'body', issue.message);
  }
  return parsed.data;
}

/**
 * Reads one chunk call's form from the socket: the fields, then (when there is one) the `chunk`
 * part, which is handed to `onChunk` as a stream and never collected. Answers the fields and
 * whether a chunk came.
 */
function readForm(
  req: FastifyRequest,
  onChunk: (fields: ChunkFields, chunk: Readable) => Promise<void>,
): Promise<{ fields: ChunkFields; chunk: boolean }> {
  const body = req.body as Readable;
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        limits: UPLOAD_MULTIPART_LIMITS,
        highWaterMark: STREAM_HWM,
        fileHwm: STREAM_HWM,
      });
    } catch {
      reject(new BadRequest('body', FORM_NEEDED));
      return;
    }
    const raw: Record<string, string> = {};
    let chunkWork: Promise<void> | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      // Stop reading: the answer goes out now, the rest of the body is not wanted.
      body.unpipe(form);
      body.resume();
      reject(err);
    };
    form.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new BadRequest(name, 'is too long.'));
      raw[name] = value;
    });
    form.on('file', (name, stream) => {
      if (name !== 'chunk' || chunkWork) {
        stream.resume();
        return fail(new BadRequest(name, 'unexpected file part; send one part named chunk.'));
      }
      let fields: ChunkFields;
      try {
        fields = parseFields(raw);
      } catch (err) {
        stream.resume();
        return fail(err);
      }
      chunkWork = onChunk(fields, stream).catch((err: unknown) => {
        stream.resume();
        fail(err);
      });
    });
    form.on('filesLimit', () => fail(new BadRequest('chunk', 'send one chunk per call.')));
    form.on('fieldsLimit', () => fail(new BadRequest('body', 'too many fields.')));
    form.on('error', () => fail(new BadRequest('body', FORM_NEEDED)));
    form.on('close', () => {
      if (failed) return;
      (chunkWork ?? Promise.resolve()).then(() => {
        if (failed) return;
        try {
          resolve({ fields: parseFields(raw), chunk: chunkWork !== undefined });
        } catch (err) {
          fail(err);
        }
      });
    });
    body.on('error', fail);
    body.pipe(form);
  });
}

/** POST/GET/DELETE /api/files/upload and GET /api/files/uploads (docs/decisions/018-uploads-and-storage.md). */
export async function uploadsRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createUploadsService(ctx);
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
      const { fields, chunk } = await readForm(req, (f, stream) => service.receiveChunk(req.user, f, stream));
      if (!chunk) await service.complete(req.user, fields.uuid);
      return { data: { uuid: fields.uuid } };
    });
  });
}
