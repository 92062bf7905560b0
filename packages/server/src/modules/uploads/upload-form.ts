import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UPLOAD_HEADERS, UPLOAD_MULTIPART_LIMITS, uploadChunkFields } from '@mesmer/shared/api/uploads';
import { UPLOAD_CHUNK_BYTES } from '@mesmer/shared/domain/upload-limits';
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { BadRequest } from '../../platform/errors.ts';
import type { ChunkFields } from './uploads.service.ts';

/** Pieces of the chunk in flight: larger than the streams' 16 KiB default, for fewer, larger writes. */
const STREAM_HWM = 1024 * 1024;
export const FORM_NEEDED = 'must be multipart/form-data with the upload fields and a chunk.';
const CHUNK_TOO_LONG = `a chunk holds at most ${UPLOAD_CHUNK_BYTES} bytes.`;

type HeaderField = keyof typeof UPLOAD_HEADERS;
const HEADER_FIELDS = Object.keys(UPLOAD_HEADERS) as HeaderField[];

/** The metadata the headers carry, as field strings (the file name percent-decoded). */
function headerValues(req: FastifyRequest): Partial<Record<HeaderField, string>> {
  const out: Partial<Record<HeaderField, string>> = {};
  for (const field of HEADER_FIELDS) {
    const value = req.headers[UPLOAD_HEADERS[field]];
    if (typeof value !== 'string') continue;
    if (field !== 'fileName') out[field] = value;
    else {
      try {
        out[field] = decodeURIComponent(value);
      } catch {
        throw new BadRequest(
          'fileName',
          `the ${UPLOAD_HEADERS.fileName} header is not percent-encoded UTF-8.`,
        );
      }
    }
  }
  return out;
}

/** One value as the contract reads it, to compare a header with a field (`1` and `01` agree). */
function normalised(field: HeaderField, value: string): unknown {
  const parsed = uploadChunkFields.shape[field].safeParse(value);
  return parsed.success ? parsed.data : value;
}

/**
 * The call's metadata: the fields, with the headers filling in what the fields lack. A header and
 * a field that disagree are a 400 naming the field: a client that means one thing says it once.
 */
function merged(
  headers: Partial<Record<HeaderField, string>>,
  raw: Record<string, string>,
): Record<string, string> {
  const out = { ...raw };
  for (const field of HEADER_FIELDS) {
    const header = headers[field];
    if (header === undefined) continue;
    if (out[field] === undefined) out[field] = header;
    else if (normalised(field, out[field]) !== normalised(field, header)) {
      throw new BadRequest(field, `the field and the ${UPLOAD_HEADERS[field]} header differ.`);
    }
  }
  return out;
}

function parseFields(raw: Record<string, string>): ChunkFields {
  const parsed = uploadChunkFields.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequest(issue.path.join('.') || 'body', issue.message);
  }
  return parsed.data;
}

/** Writes a chunk to a temporary file, counting its bytes; refuses one longer than a chunk may be. */
async function spool(
  stream: Readable,
): Promise<{ file: string; size: number; dispose: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-chunk-'));
  const dispose = () => fs.rm(dir, { recursive: true, force: true });
  const file = path.join(dir, 'chunk');
  let size = 0;
  const counter = new Transform({
    highWaterMark: STREAM_HWM,
    transform(part: Buffer, _enc, done) {
      size += part.length;
      if (size > UPLOAD_CHUNK_BYTES) return done(new BadRequest('chunk', CHUNK_TOO_LONG));
      done(null, part);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(file, { highWaterMark: STREAM_HWM }));
  } catch (err) {
    await dispose();
    throw err;
  }
  return { file, size, dispose };
}

/** Stores one chunk: its metadata, its bytes, their exact length, and what a size error names. */
export type ChunkHandler = (
  fields: ChunkFields,
  body: Readable,
  size: number,
  sizeField: string,
) => Promise<void>;

/**
 * Reads one chunk call's form from the socket, the fields and the `chunk` part in either order,
 * with the headers' metadata. When the metadata and the chunk's size (`chunkSize`) are known before
 * the chunk, it streams straight to `onChunk`; otherwise (the spec's order: chunk first; or no
 * `chunkSize`) it is spooled to a temporary file, at most one chunk long, counted, and handed on
 * once the form has been read. Answers the metadata and whether a chunk came.
 */
export function readChunkForm(
  req: FastifyRequest,
  onChunk: ChunkHandler,
): Promise<{ fields: ChunkFields; chunk: boolean }> {
  const body = req.body as Readable;
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    let headers: Partial<Record<HeaderField, string>>;
    try {
      headers = headerValues(req);
      form = busboy({
        headers: req.headers,
        limits: UPLOAD_MULTIPART_LIMITS,
        highWaterMark: STREAM_HWM,
        fileHwm: STREAM_HWM,
      });
    } catch (err) {
      reject(err instanceof BadRequest ? err : new BadRequest('body', FORM_NEEDED));
      return;
    }
    const raw: Record<string, string> = {};
    /** The metadata a chunk was streamed with: later fields must not change it. */
    let streamedWith: ChunkFields | undefined;
    let spooled: Promise<Awaited<ReturnType<typeof spool>>> | undefined;
    let chunkWork: Promise<void> | undefined;
    let failed = false;
    let chunkStream: Readable | undefined;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      // Stop reading: the answer goes out now, the rest of the body is not wanted; the chunk's
      // stream is ended so that storage or the spool lets go of it.
      body.unpipe(form);
      body.resume();
      chunkStream?.destroy();
      reject(err);
    };
    form.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new BadRequest(name, 'is too long.'));
      if (name in raw) return fail(new BadRequest(name, 'is sent twice.'));
      raw[name] = value;
    });
    form.on('file', (name, stream) => {
      if (name !== 'chunk' || chunkWork) {
        stream.resume();
        return fail(new BadRequest(name, 'unexpected file part; send one part named chunk.'));
      }
      chunkStream = stream;
      let known: ChunkFields | undefined;
      try {
        const meta = merged(headers, raw);
        const parsed = uploadChunkFields.safeParse(meta);
        if (parsed.success && parsed.data.chunkSize !== undefined) known = parsed.data;
        // A value already given and wrong is refused now, before the chunk is read.
        const wrong = parsed.error?.issues.find((issue) => String(issue.path[0]) in meta);
        if (wrong) throw new BadRequest(wrong.path.join('.'), wrong.message);
      } catch (err) {
        stream.resume();
        return fail(err);
      }
      if (known) {
        streamedWith = known;
        chunkWork = onChunk(known, stream, known.chunkSize as number, 'chunkSize');
      } else {
        spooled = spool(stream);
        chunkWork = spooled.then(() => undefined);
      }
      chunkWork = chunkWork.catch((err: unknown) => {
        stream.resume();
        fail(err);
      });
    });
    form.on('filesLimit', () => fail(new BadRequest('chunk', 'send one chunk per call.')));
    form.on('fieldsLimit', () => fail(new BadRequest('body', 'too many fields.')));
    form.on('error', () => fail(new BadRequest('body', FORM_NEEDED)));
    form.on('close', () => {
      if (failed) return;
      (chunkWork ?? Promise.resolve()).then(async () => {
        if (failed) {
          (await spooled?.catch(() => undefined))?.dispose();
          return;
        }
        const held = await spooled;
        try {
          const fields = parseFields(merged(headers, raw));
          if (streamedWith) {
            const changed = (Object.keys(fields) as (keyof ChunkFields)[]).find(
              (key) => fields[key] !== streamedWith?.[key],
            );
            if (changed)
              throw new BadRequest(changed, 'a field after the chunk differs from the one before it.');
          }
          if (held) {
            if (fields.chunkSize !== undefined && fields.chunkSize !== held.size) {
              throw new BadRequest('chunkSize', `the chunk has ${held.size} bytes, not ${fields.chunkSize}.`);
            }
            const sizeField = fields.chunkSize === undefined ? 'chunk' : 'chunkSize';
            await onChunk(
              fields,
              createReadStream(held.file, { highWaterMark: STREAM_HWM }),
              held.size,
              sizeField,
            );
          }
          resolve({ fields, chunk: chunkWork !== undefined });
        } catch (err) {
          fail(err);
        } finally {
          await held?.dispose();
        }
      });
    });
    body.on('error', fail);
    body.pipe(form);
  });
}
