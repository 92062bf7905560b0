import { z } from 'zod';
import { MAX_UPLOAD_CHUNKS, UPLOAD_CHUNK_BYTES } from '../domain/upload-limits.ts';
import { uploadsRoutes } from '../routes/uploads.ts';
import { errorResponse, queryBool, text } from './common.ts';
import { defineRoute } from './contract.ts';

/**
 * The metadata of one POST /api/files/upload call (multipart/form-data). The spec's payload is
 * `chunk`, `secure`, `chunkIndex`, `totalChunks`, `uuid` and `fileName`, in any order: the fields
 * may come before or after the `chunk` file part, and each may instead travel as a header
 * (UPLOAD_HEADERS); a header and a field that disagree are a 400 naming the field. `uuid` is the
 * client's handle for its upload (unique per uploader; it names nothing stored). `chunkSize` (this
 * chunk's bytes) and `fileSize` (the whole file's) are optional: sent before the chunk, they let
 * the server refuse a file over the limit before storing a byte and stream the chunk straight to
 * storage; without them the server counts the bytes. A call without the `chunk` part completes
 * the upload.
 */
export const uploadChunkFields = z.object({
  uuid: z.uuid(),
  fileName: text(255).trim().min(1, 'is required'),
  secure: queryBool.default(false),
  chunkIndex: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_UPLOAD_CHUNKS - 1),
  totalChunks: z.coerce.number().int().min(1).max(MAX_UPLOAD_CHUNKS),
  chunkSize: z.coerce.number().int().min(1).max(UPLOAD_CHUNK_BYTES).optional(),
  fileSize: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type UploadChunkFields = z.input<typeof uploadChunkFields>;

/** The headers that may carry the spec's metadata instead of fields (lower case, as Node reads them). */
export const UPLOAD_HEADERS = {
  uuid: 'x-upload-id',
  chunkIndex: 'x-chunk-index',
  totalChunks: 'x-total-chunks',
  /** Percent-encoded UTF-8 (encodeURIComponent), as header values are Latin-1. */
  fileName: 'x-file-name',
  secure: 'x-secure',
} as const;

export const UPLOAD_STATES = ['receiving', 'processing', 'ready', 'failed'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

export const uploadStatus = z.object({
  uuid: z.string(),
  fileName: z.string(),
  state: z.enum(UPLOAD_STATES),
  totalChunks: z.number().int(),
  /** Indexes of the chunks the server holds: a resumed upload sends only the others. */
  receivedChunks: z.array(z.number().int()),
  /** Why processing failed. */
  error: z.string().nullable(),
  /** Once processed (milliseconds). */
  duration: z.number().int().nullable(),
  audioType: z.string().nullable(),
  createdAt: z.string(),
});
export type UploadStatus = z.infer<typeof uploadStatus>;

export const uploadChunkResponse = z.object({ data: z.object({ uuid: z.string() }) });

export const uploadsApi = {
  chunk: defineRoute(uploadsRoutes.chunk, {
    tags: ['uploads'],
    summary: 'Send one chunk of a file, or complete the upload',
    description:
      'multipart/form-data with the fields of `uploadChunkFields` (uuid, fileName, secure, chunkIndex, totalChunks, ' +
      'optional chunkSize and fileSize) and the `chunk` file part of at most 80,000,000 bytes, in either order; ' +
      'uuid, chunkIndex, totalChunks, fileName and secure may travel as the headers X-Upload-Id, X-Chunk-Index, ' +
      'X-Total-Chunks, X-File-Name (percent-encoded) and X-Secure instead (a header and a field that disagree: 400). ' +
      "`uuid` is the client's handle, unique per uploader; one that is a published file's uuid is 409. Chunks may " +
      'come in any order and be sent again. A call without `chunk` completes the upload: the bytes are checked (mp3, ' +
      'm4a, wav or flac, read from the bytes) and analysed, and the answer is `data.uuid` (the handle), to pass to ' +
      "POST /api/files. More than 350,000,000 bytes in all answers 413 'The max file size is 350MB.'; unfinished " +
      'uploads holding more than 700,000,000 bytes for the account answer 413 saying so. Needs an upload permission. ' +
      'Starting more than 30 uploads an hour answers 429 with Retry-After.',
    responses: {
      200: uploadChunkResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      409: errorResponse,
      413: errorResponse,
      429: errorResponse,
    },
  }),
  status: defineRoute(uploadsRoutes.status, {
    tags: ['uploads'],
    summary: "One of the viewer's uploads: which chunks the server holds",
    query: z.object({ uuid: z.uuid() }),
    responses: { 200: uploadStatus, 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
  list: defineRoute(uploadsRoutes.list, {
    tags: ['uploads'],
    summary: "The viewer's uploads not yet made into files (receiving, processing, ready or failed)",
    responses: { 200: z.object({ uploads: z.array(uploadStatus) }), 401: errorResponse },
  }),
  cancel: defineRoute(uploadsRoutes.cancel, {
    tags: ['uploads'],
    summary: 'Cancel an upload, removing its bytes',
    query: z.object({ uuid: z.uuid() }),
    responses: { 204: z.null(), 400: errorResponse, 401: errorResponse, 404: errorResponse },
  }),
};

/**
 * Bounds for the multipart parser: the fields above and one chunk (one byte more than a chunk may
 * hold, so that a longer one is seen and refused rather than cut short).
 */
export const UPLOAD_MULTIPART_LIMITS = {
  fields: 10,
  fieldSize: 1000,
  files: 1,
  fileSize: UPLOAD_CHUNK_BYTES + 1,
} as const;
