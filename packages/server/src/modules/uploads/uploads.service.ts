import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadState, UploadStatus } from '@mesmer/shared/api/uploads';
import { canUpload } from '@mesmer/shared/domain/permissions';
import {
  MAX_UNFINISHED_UPLOAD_BYTES,
  MAX_UPLOAD_BYTES,
  MIN_UPLOAD_PART_BYTES,
  UNFINISHED_UPLOADS_FULL_MESSAGE,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@mesmer/shared/domain/upload-limits';
import type { Db } from '../../db/client.ts';
import { requirePermission, requireUser, type SessionUser } from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, BadRequest, Conflict, NotFound } from '../../platform/errors.ts';
import type { Metrics } from '../../platform/metrics.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { Storage } from '../../platform/storage.ts';
import { peaksKeyOf, storePeaks } from './peaks-file.ts';
import { analyseUpload } from './processing.ts';
import { createUploadsRepo, type UploadRow } from './uploads.repo.ts';

/** What POST /api/files needs of a processed upload (the audio is already under `audioKey`). */
export interface ReadyUpload {
  /** The server's id: the new file's uuid. */
  id: string;
  /** The client's handle. */
  uuid: string;
  fileName: string;
  audioKey: string;
  audioType: string;
  codec: string;
  duration: number;
  size: number;
  waveform: number[];
  loudness: number | null;
  /** Where the cue editor's peaks are (missing for uploads processed before they were made: made when asked). */
  peaksKey: string;
}

/** HTTP 413 with the spec's message (or the one given). */
export class UploadTooLarge extends AppError {
  constructor(message = UPLOAD_TOO_LARGE_MESSAGE) {
    super(413, message);
  }
}

/** The fields of one chunk call, validated (uploadChunkFields). */
export interface ChunkFields {
  uuid: string;
  fileName: string;
  secure: boolean;
  chunkIndex: number;
  totalChunks: number;
  chunkSize?: number;
  fileSize?: number;
}

const NOT_FOUND = 'Upload not found.';
const CANNOT_UPLOAD = 'You do not have permission to upload files.';

/**
 * Where an upload's bytes wait until processed, and where its audio goes: both by the server's id
 * (`uploads.id`), never by anything a client sent, so no upload can address another's media.
 */
export const stagingKey = (id: string) => `uploads/${id}`;
export const audioKeyOf = (id: string, audioType: string) => `audio/${id}.${audioType}`;

function requireUploader(user: SessionUser | null): SessionUser {
  return requirePermission(user, canUpload, CANNOT_UPLOAD);
}

/**
 * Passes the chunk's bytes on to storage and fails the stream (so storage drops the part) as soon
 * as they pass `size`, or at the end when fewer came: nothing past what was checked is stored.
 */
function byteCounter(size: number, field: string) {
  let seen = 0;
  return new Transform({
    highWaterMark: 1024 * 1024,
    transform(part: Buffer, _enc, done) {
      seen += part.length;
      if (seen > size) return done(new BadRequest(field, `the chunk is longer than ${field}.`));
      done(null, part);
    },
    flush(done) {
      if (seen !== size) return done(new BadRequest(field, `the chunk has ${seen} bytes, not ${size}.`));
      done();
    },
  });
}

export type UploadsService = ReturnType<typeof createUploadsService>;

export function createUploadsService({
  db,
  clock,
  limiter,
  metrics,
  storage,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  metrics: Metrics;
  storage: Storage;
}) {
  const repo = createUploadsRepo(db);

  /** The user's upload with the handle `uuid`, or 404 (another user's handle names none of theirs). */
  async function ownUpload(user: SessionUser, uuid: string): Promise<UploadRow> {
    const row = await repo.findOwn(user.id, uuid);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** Removes the upload's bytes wherever they are (parts, staged object, processed audio). */
  async function removeBytes(row: UploadRow, rows = repo) {
    await storage.abortMultipart(row.storageKey, row.storageUploadId);
    await storage.delete(row.storageKey);
    if (row.audioType && !(await rows.fileHas(row.id))) {
      await storage.delete(audioKeyOf(row.id, row.audioType));
      await storage.delete(peaksKeyOf(row.id));
    }
  }

  async function statusOf(row: UploadRow, received?: number[]): Promise<UploadStatus> {
    const chunks = received ?? (await repo.chunks(row.id)).map((c) => c.chunkIndex);
    return {
      uuid: row.uuid,
      fileName: row.fileName,
      state: row.state as UploadState,
      totalChunks: row.totalChunks,
      receivedChunks: chunks,
      error: row.error,
      duration: row.duration,
      audioType: row.audioType,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** Turns the joined bytes into audio: checked, analysed, moved to their final key. */
  async function processUpload(row: UploadRow): Promise<void> {
    try {
      const analysis = await analyseUpload(storage, row.storageKey);
      // Uploads started before ids were the server's used the client's: never onto a file's audio.
      if (await repo.fileHas(row.id))
        throw new Conflict('The upload is not usable: please upload the file again.');
      const audioKey = audioKeyOf(row.id, analysis.audioType);
      await storage.move(row.storageKey, audioKey);
      await storePeaks(storage, peaksKeyOf(row.id), analysis.finePeaks);
      await repo.update(row.id, {
        state: 'ready',
        error: null,
        audioType: analysis.audioType,
        codec: analysis.codec,
        duration: analysis.duration,
        size: analysis.size,
        waveform: analysis.waveform,
        loudness: analysis.loudness,
        updatedAt: clock.now(),
      });
      await repo.deleteChunks(row.id);
    } catch (err) {
      const message = err instanceof AppError ? err.message : 'The file could not be processed.';
      await removeBytes(row).catch(() => undefined);
      await repo.deleteChunks(row.id);
      await repo.update(row.id, { state: 'failed', error: message, updatedAt: clock.now() });
      throw err;
    }
  }

  return {
    /** Throws 401/403 unless the user may upload; routes call it before reading a byte of the body. */
    requireUploader,

    /**
     * Stores one chunk of `size` bytes (known before its bytes: announced, or counted while it was
     * spooled), streaming it to storage as part `chunkIndex + 1`. The first chunk of a handle
     * creates the user's upload under a new server id; a chunk sent again replaces the stored one.
     * `sizeField` is what a 400 about the size names (`chunkSize` when announced, else `chunk`).
     */
    async receiveChunk(
      sessionUser: SessionUser | null,
      fields: ChunkFields,
      body: Readable,
      size: number,
      sizeField = 'chunkSize',
    ): Promise<void> {
      const user = requireUploader(sessionUser);
      const { uuid, chunkIndex, totalChunks, fileSize } = fields;
      if (chunkIndex >= totalChunks) throw new BadRequest('chunkIndex', 'must be less than totalChunks.');
      if (fileSize !== undefined && fileSize > MAX_UPLOAD_BYTES) throw new UploadTooLarge();
      if (size === 0) throw new BadRequest(sizeField, 'the chunk is empty.');
      if (chunkIndex < totalChunks - 1 && size < MIN_UPLOAD_PART_BYTES) {
        throw new BadRequest(
          sizeField,
          `every chunk but the last must be at least ${MIN_UPLOAD_PART_BYTES} bytes.`,
        );
      }
      let row = await repo.findOwn(user.id, uuid);
      // Bytes held by the account's unfinished uploads, before anything is started or stored.
      const held = await repo.heldBytes(user.id, row ? { id: row.id, chunkIndex } : undefined);
      if (held + size > MAX_UNFINISHED_UPLOAD_BYTES)
        throw new UploadTooLarge(UNFINISHED_UPLOADS_FULL_MESSAGE);
      if (!row) {
        // A handle that is a file's uuid is refused, so no answer ever pairs the two.
        if (await repo.fileHas(uuid)) {
          throw new BadRequest('uuid', "is a published file's id: send a new uuid for each upload.");
        }
        await limiter.consume(ACCOUNT_LIMITS.uploadsStarted, String(user.id));
        const id = randomUUID();
        const key = stagingKey(id);
        const storageUploadId = await storage.startMultipart(key);
        const now = clock.now();
        const result = await repo.insertOrGet({
          id,
          uuid,
          userId: user.id,
          fileName: fields.fileName,
          secure: fields.secure,
          totalChunks,
          declaredSize: fileSize ?? null,
          storageKey: key,
          storageUploadId,
          createdAt: now,
          updatedAt: now,
        });
        // Another call created it first: keep theirs and drop ours.
        if (!result.inserted) await storage.abortMultipart(key, storageUploadId);
        row = result.row;
      }
      if (row.state !== 'receiving') throw new Conflict('The upload is already complete.');
      if (row.totalChunks !== totalChunks) throw new BadRequest('totalChunks', 'does not match the upload.');
      if (size > MAX_UPLOAD_BYTES - (await repo.storedBytes(row.id, chunkIndex))) throw new UploadTooLarge();
      const counted = byteCounter(size, sizeField);
      let etag: string;
      try {
        const put = storage.putPart(row.storageKey, row.storageUploadId, chunkIndex + 1, counted, size);
        const [, stored] = await Promise.all([pipeline(body, counted), put]);
        etag = stored.etag;
      } catch (err) {
        // A failed replacement may have dropped the part stored before: the client sends it again.
        await repo.deleteChunk(row.id, chunkIndex);
        throw err;
      }
      await repo.saveChunk(row.id, chunkIndex, size, etag, clock.now());
      metrics.uploadBytes.inc(size);
    },

    /** Joins the chunks and processes the file: checked, analysed, ready for POST /api/files. */
    async complete(sessionUser: SessionUser | null, uuid: string): Promise<void> {
      const user = requireUploader(sessionUser);
      const row = await ownUpload(user, uuid);
      if (row.state === 'ready') return;
      if (row.state === 'failed') throw new Conflict(row.error ?? 'The upload failed.');
      if (row.state === 'processing') throw new Conflict('The upload is being processed.');
      const chunks = await repo.chunks(row.id);
      const have = new Set(chunks.map((c) => c.chunkIndex));
      const missing = Array.from({ length: row.totalChunks }, (_, i) => i).filter((i) => !have.has(i));
      if (missing.length > 0) throw new Conflict(`The upload is missing chunks ${missing.join(', ')}.`);
      if (!(await repo.claimForProcessing(row.id, clock.now()))) {
        throw new Conflict('The upload is being processed.');
      }
      try {
        await storage.completeMultipart(
          row.storageKey,
          row.storageUploadId,
          chunks.map((c) => ({ partNumber: c.chunkIndex + 1, etag: c.etag })),
        );
      } catch (err) {
        await removeBytes(row).catch(() => undefined);
        await repo.deleteChunks(row.id);
        await repo.update(row.id, {
          state: 'failed',
          error: 'The upload could not be joined.',
          updatedAt: clock.now(),
        });
        throw err;
      }
      await processUpload(row);
    },

    async status(sessionUser: SessionUser | null, uuid: string): Promise<UploadStatus> {
      const user = requireUser(sessionUser);
      return statusOf(await ownUpload(user, uuid));
    },

    /** The user's uploads not yet made into files. */
    async list(sessionUser: SessionUser | null): Promise<UploadStatus[]> {
      const user = requireUser(sessionUser);
      const rows = await repo.listOf(user.id);
      const chunks = await repo.chunksOf(rows.map((r) => r.id));
      return Promise.all(
        rows.map((row) =>
          statusOf(
            row,
            chunks.filter((c) => c.uploadId === row.id).map((c) => c.chunkIndex),
          ),
        ),
      );
    },

    /** Cancels the upload: its bytes and its row go. */
    async cancel(sessionUser: SessionUser | null, uuid: string): Promise<void> {
      const user = requireUser(sessionUser);
      const row = await ownUpload(user, uuid);
      await removeBytes(row);
      await repo.delete(row.id);
    },

    /** The processed upload of `user` with the handle `uuid`, for POST /api/files. */
    async readyUpload(user: SessionUser, uuid: string): Promise<ReadyUpload> {
      const row = await ownUpload(user, uuid);
      if (row.state !== 'ready' || !row.audioType) throw new Conflict('The upload is not finished.');
      return {
        id: row.id,
        uuid: row.uuid,
        fileName: row.fileName,
        audioKey: audioKeyOf(row.id, row.audioType),
        audioType: row.audioType,
        codec: row.codec ?? '',
        duration: row.duration ?? 0,
        size: row.size ?? 0,
        waveform: row.waveform ?? [],
        loudness: row.loudness,
        peaksKey: peaksKeyOf(row.id),
      };
    },

    /** Deletes the upload's row (by its server id) once a file owns its audio (the bytes stay: they are the file's). */
    async forget(id: string): Promise<void> {
      await repo.delete(id);
    },

    /**
     * Removes uploads started before `before` with their bytes, whatever was sent since (an upload
     * already made into a file keeps its audio), in the caller's transaction `tx`. Answers how many went.
     */
    async removeAbandoned(tx: Db, before: Date): Promise<number> {
      const txRepo = createUploadsRepo(tx);
      const rows = await txRepo.abandoned(before);
      for (const row of rows) {
        await removeBytes(row, txRepo);
        await txRepo.delete(row.id);
      }
      return rows.length;
    },
  };
}
