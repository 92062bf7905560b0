/**
 * The chunked, resumable upload of one file (POST /api/files/upload, shared/api/uploads.ts):
 * the file goes in UPLOAD_CHUNK_BYTES slices, each with the contract's fields in order and then
 * the `chunk` part, through XMLHttpRequest so progress is reported per byte. A chunk is tried
 * three times with backoff; a call without a chunk completes the upload. The upload is noted in
 * localStorage so that picking the same file again (after a reload or a lost connection) asks the
 * server which chunks it holds and sends only the others.
 */

import type { UploadStatus, uploadChunkFields } from '@mesmer/shared/api/uploads';
import {
  chunkCount,
  UNFINISHED_UPLOADS_FULL_MESSAGE,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@mesmer/shared/domain/upload-limits';
import { routePath } from '@mesmer/shared/routes/address';
import { uploadsRoutes } from '@mesmer/shared/routes/uploads';
import type { z } from 'zod';
import { ApiError, call } from '../../../lib/api-client.ts';

type ChunkFields = z.output<typeof uploadChunkFields>;

/** Spec: 'Not every chunk succeeds'. */
export const CHUNK_FAILED_MESSAGE = 'An error occurred.';
/** Waits before the second and third try of a chunk. */
export const RETRY_DELAYS_MS = [1000, 2000] as const;

/** One POST to the upload route, as the server answered it; rejects on a network failure or abort. */
export type ChunkTransport = (
  form: FormData,
  onProgress: (loadedBytes: number) => void,
  signal: AbortSignal,
) => Promise<{ status: number; body: unknown }>;

/** An upload that cannot go on; `message` is the text to show. */
export class UploadError extends Error {}

/** XMLHttpRequest, for its upload progress events (fetch has none for request bodies). */
export const xhrTransport: ChunkTransport = (form, onProgress, signal) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const aborted = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    if (signal.aborted) return aborted();
    xhr.open('POST', `/api${routePath(uploadsRoutes.chunk)}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new TypeError('The connection failed.'));
    xhr.onabort = aborted;
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });

// ---- What this browser remembers of unfinished uploads --------------------------------------

const STORAGE_KEY = 'mesmer.uploads';

export interface RememberedUpload {
  uuid: string;
  name: string;
  size: number;
  lastModified: number;
}

function remembered(): RememberedUpload[] {
  try {
    const list = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(entry: RememberedUpload) {
  const others = remembered().filter((u) => u.uuid !== entry.uuid);
  localStorage.setItem(STORAGE_KEY, JSON.stringify([...others, entry].slice(-20)));
}

/** Forgets an upload (completed, cancelled or gone from the server). */
export function forgetUpload(uuid: string) {
  const kept = remembered().filter((u) => u.uuid !== uuid);
  if (kept.length) localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
  else localStorage.removeItem(STORAGE_KEY);
}

function rememberedFor(file: File): RememberedUpload | undefined {
  return remembered().find(
    (u) => u.name === file.name && u.size === file.size && u.lastModified === file.lastModified,
  );
}

// ---- The upload -----------------------------------------------------------------------------

export interface UploadRequest {
  file: File;
  /** Sent with every chunk: true when a membership tier is set (read per chunk). */
  secure: () => boolean;
  signal: AbortSignal;
  /** Continue this upload (from My Files) instead of the one remembered for the file, if any. */
  resumeUuid?: string;
  /** Bytes the server holds (received chunks and this chunk's bytes sent so far) of the total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
  /** All chunks are in; the server is checking and analysing the file. */
  onProcessing?: () => void;
  transport?: ChunkTransport;
  /** GET /api/files/upload?uuid=; null when the server has no such upload. */
  status?: (uuid: string, signal: AbortSignal) => Promise<UploadStatus | null>;
  sleep?: (ms: number) => Promise<void>;
  newUuid?: () => string;
}

const defaultStatus = async (uuid: string, signal: AbortSignal): Promise<UploadStatus | null> => {
  try {
    return await call(uploadsRoutes.status, { query: { uuid }, signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends the file (or the chunks the server lacks) and completes it; resolves to the upload's uuid. */
export async function uploadFile(req: UploadRequest): Promise<string> {
  const {
    file,
    signal,
    transport = xhrTransport,
    status = defaultStatus,
    sleep = defaultSleep,
    newUuid = () => crypto.randomUUID(),
  } = req;
  const totalChunks = chunkCount(file.size);
  const chunkBytes = (index: number) => Math.min(UPLOAD_CHUNK_BYTES, file.size - index * UPLOAD_CHUNK_BYTES);

  let uuid = req.resumeUuid ?? rememberedFor(file)?.uuid;
  let received = new Set<number>();
  if (uuid) {
    const known = await status(uuid, signal);
    if (known && req.resumeUuid && known.totalChunks !== totalChunks) {
      throw new UploadError(`This is not the file “${known.fileName}” of the upload to resume.`);
    }
    if (!known || known.state === 'failed' || known.totalChunks !== totalChunks) {
      forgetUpload(uuid);
      uuid = undefined;
    } else if (known.state !== 'receiving') {
      // Already complete: processing or ready to be made into a file.
      forgetUpload(uuid);
      return uuid;
    } else {
      received = new Set(known.receivedChunks);
    }
  }
  if (!uuid) uuid = newUuid();
  remember({ uuid, name: file.name, size: file.size, lastModified: file.lastModified });

  let doneBytes = [...received].reduce((sum, i) => sum + (i < totalChunks ? chunkBytes(i) : 0), 0);
  req.onProgress?.(doneBytes, file.size);

  const fields = (index: number): ChunkFields => ({
    uuid: uuid as string,
    fileName: file.name,
    secure: req.secure(),
    chunkIndex: index,
    totalChunks,
    chunkSize: chunkBytes(index),
    fileSize: file.size,
  });

  for (let index = 0; index < totalChunks; index += 1) {
    if (received.has(index)) continue;
    const start = index * UPLOAD_CHUNK_BYTES;
    const slice = file.slice(start, start + chunkBytes(index));
    await sendWithRetries(() => {
      const form = formOf(fields(index));
      form.append('chunk', slice, file.name);
      return transport(
        form,
        (loaded) => req.onProgress?.(doneBytes + Math.min(loaded, slice.size), file.size),
        signal,
      );
    });
    doneBytes += slice.size;
    req.onProgress?.(doneBytes, file.size);
  }

  req.onProcessing?.();
  // The completing call: the fields and no chunk.
  const done = await transport(formOf(fields(totalChunks - 1)), () => {}, signal).catch((err) => {
    if (isAbort(err)) throw err;
    throw new UploadError(CHUNK_FAILED_MESSAGE);
  });
  if (done.status !== 200) throw new UploadError(errorText(done.status, done.body));
  forgetUpload(uuid);
  return uuid;

  async function sendWithRetries(send: () => Promise<{ status: number; body: unknown }>) {
    for (let attempt = 0; ; attempt += 1) {
      let answer: { status: number; body: unknown } | null = null;
      try {
        answer = await send();
      } catch (err) {
        if (isAbort(err)) throw err;
      }
      if (answer?.status === 200) return;
      // The server refused the request itself: sending it again cannot help.
      if (
        answer &&
        answer.status >= 400 &&
        answer.status < 500 &&
        answer.status !== 408 &&
        answer.status !== 429
      ) {
        throw new UploadError(errorText(answer.status, answer.body));
      }
      if (attempt >= RETRY_DELAYS_MS.length) throw new UploadError(CHUNK_FAILED_MESSAGE);
      await sleep(RETRY_DELAYS_MS[attempt]);
      if (signal.aborted) throw new DOMException('The upload was stopped.', 'AbortError');
    }
  }
}

function formOf(fields: ChunkFields): FormData {
  const form = new FormData();
  // The contract's order: uuid, fileName, secure, chunkIndex, totalChunks, chunkSize, fileSize.
  for (const key of [
    'uuid',
    'fileName',
    'secure',
    'chunkIndex',
    'totalChunks',
    'chunkSize',
    'fileSize',
  ] as const) {
    const value = fields[key];
    if (value !== undefined) form.append(key, String(value));
  }
  return form;
}

/**
 * Spec: HTTP 413 'The max file size is 350MB.'; other errors the server's message. A 413 about the
 * account's unfinished uploads (not this file's size) keeps its own message.
 */
function errorText(status: number, body: unknown): string {
  const message = (body as { error?: unknown } | null)?.error;
  if (status === 413) return message === UNFINISHED_UPLOADS_FULL_MESSAGE ? message : UPLOAD_TOO_LARGE_MESSAGE;
  return typeof message === 'string' && message ? message : CHUNK_FAILED_MESSAGE;
}

export function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}
