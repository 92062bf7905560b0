import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadState, UploadStatus } from '@mesmer/shared/api/uploads';
import { canUpload } from '@mesmer/shared/domain/permissions';
import {
  MAX_UPLOAD_BYTES,
  MIN_UPLOAD_PART_BYTES,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@mesmer/shared/domain/upload-limits';
import { requireUser, type SessionUser } from '../../platform/access.ts';
import { ACCOUNT_LIMITS } from '../../platform/account-limits.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import { createStorage, type Storage } from '../../platform/storage.ts';
import { analyseUpload } from './processing.ts';
import { createUploadsRepo, type UploadRow } from './uploads.repo.ts';

/** What POST /api/files needs of a processed upload (the audio is already under `audioKey`). */
export interface ReadyUpload {
  uuid: string;
  fileName: string;
  audioKey: string;
  audioType: string;
  codec: string;
  duration: number;
  size: number;
  waveform: number[];
  loudness: number | null;
}

/** HTTP 413 with the spec's message. */
export class UploadTooLarge extends AppError {
  constructor() {
    super(413, UPLOAD_TOO_LARGE_MESSAGE);
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

/** Where an upload's bytes wait until processed: never the client's file name. */
export const stagingKey = (uuid: string) => `uploads/${uuid}`;
export const audioKeyOf = (uuid: string, audioType: string) => `audio/${uuid}.${audioType}`;

function requireUploader(user: SessionUser | null): SessionUser {
  const signedIn = requireUser(user);
  if (!canUpload(signedIn)) throw new Forbidden(CANNOT_UPLOAD);
  return signedIn;
}

/**
 * Counts the chunk's bytes on their way to storage and fails the stream (so storage drops the
 * part) as soon as they pass what was announced or the limit: nothing past the limit is stored.
 */
function byteCounter(announced: number, room: number) {
  let seen = 0;
  return new Transform({
    highWaterMark: 1024 * 1024,
    transform(part: Buffer, _enc, done) {
      seen += part.length;
      if (seen > room) return done(new UploadTooLarge());
      if (seen > announced) return done(new BadRequest('chunkSize', 'the chunk is longer than chunkSize.'));
      done(null, part);
    },
    flush(done) {
      if (seen !== announced)
        return done(new BadRequest('chunkSize', `the chunk has ${seen} bytes, not ${announced}.`));
      done();
    },
  });
}

export function createUploadsService(ctx: AppContext, storage: Storage = createStorage(ctx.config)) {
  const repo = createUploadsRepo(ctx.db);

  /** The user's upload, or 404 (someone else's looks like none). */
  async function ownUpload(user: SessionUser, uuid: string): Promise<UploadRow> {
    const row = await repo.find(uuid);
    if (!row || row.userId !== user.id) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** Removes the upload's bytes wherever they are (parts, staged object, processed audio). */
  async function removeBytes(row: UploadRow) {
    await storage.abortMultipart(row.storageKey, row.storageUploadId);
    await storage.delete(row.storageKey);
    if (row.audioType && !(await repo.claimed(row.uuid)))
      await storage.delete(audioKeyOf(row.uuid, row.audioType));
  }

  async function statusOf(row: UploadRow, received?: number[]): Promise<UploadStatus> {
    const chunks = received ?? (await repo.chunks(row.uuid)).map((c) => c.chunkIndex);
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
      const audioKey = audioKeyOf(row.uuid, analysis.audioType);
      await storage.move(row.storageKey, audioKey);
      await repo.update(row.uuid, {
        state: 'ready',
        error: null,
        audioType: analysis.audioType,
        codec: analysis.codec,
        duration: analysis.duration,
        size: analysis.size,
        waveform: analysis.waveform,
        loudness: analysis.loudness,
        updatedAt: ctx.clock.now(),
      });
      await repo.deleteChunks(row.uuid);
    } catch (err) {
      const message = err instanceof AppError ? err.message : 'The file could not be processed.';
      await removeBytes(row).catch(() => undefined);
      await repo.deleteChunks(row.uuid);
      await repo.update(row.uuid, { state: 'failed', error: message, updatedAt: ctx.clock.now() });
      throw err;
    }
  }

  return {
    /** Throws 401/403 unless the user may upload; routes call it before reading a byte of the body. */
    requireUploader,

    /**
     * Stores one chunk, streaming it to storage as part `chunkIndex + 1`. The first chunk of a
     * uuid creates the upload; a chunk sent again replaces the stored one.
     */
    async receiveChunk(sessionUser: SessionUser | null, fields: ChunkFields, body: Readable): Promise<void> {
      const user = requireUploader(sessionUser);
      const { uuid, chunkIndex, totalChunks, chunkSize, fileSize } = fields;
      if (chunkSize === undefined) throw new BadRequest('chunkSize', 'is required with a chunk.');
      if (chunkIndex >= totalChunks) throw new BadRequest('chunkIndex', 'must be less than totalChunks.');
      if (fileSize !== undefined && fileSize > MAX_UPLOAD_BYTES) throw new UploadTooLarge();
      if (chunkIndex < totalChunks - 1 && chunkSize < MIN_UPLOAD_PART_BYTES) {
        throw new BadRequest(
          'chunkSize',
          `every chunk but the last must be at least ${MIN_UPLOAD_PART_BYTES} bytes.`,
        );
      }
      let row = await repo.find(uuid);
      if (row && row.userId !== user.id) throw new NotFound(NOT_FOUND);
      if (!row) {
        await ctx.limiter.consume(ACCOUNT_LIMITS.uploadsStarted, String(user.id));
        const key = stagingKey(uuid);
        const storageUploadId = await storage.startMultipart(key);
        const now = ctx.clock.now();
        const result = await repo.insertOrGet({
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
        if (row.userId !== user.id) throw new NotFound(NOT_FOUND);
      }
      if (row.state !== 'receiving') throw new Conflict('The upload is already complete.');
      if (row.totalChunks !== totalChunks) throw new BadRequest('totalChunks', 'does not match the upload.');
      const room = MAX_UPLOAD_BYTES - (await repo.storedBytes(uuid, chunkIndex));
      if (chunkSize > room) throw new UploadTooLarge();
      const counted = byteCounter(chunkSize, Math.min(room, UPLOAD_CHUNK_BYTES));
      let etag: string;
      try {
        const put = storage.putPart(row.storageKey, row.storageUploadId, chunkIndex + 1, counted, chunkSize);
        const [, stored] = await Promise.all([pipeline(body, counted), put]);
        etag = stored.etag;
      } catch (err) {
        // A failed replacement may have dropped the part stored before: the client sends it again.
        await repo.deleteChunk(uuid, chunkIndex);
        throw err;
      }
      await repo.saveChunk(uuid, chunkIndex, chunkSize, etag, ctx.clock.now());
      ctx.metrics.uploadBytes.inc(chunkSize);
    },

    /** Joins the chunks and processes the file: checked, analysed, ready for POST /api/files. */
    async complete(sessionUser: SessionUser | null, uuid: string): Promise<void> {
      const user = requireUploader(sessionUser);
      const row = await ownUpload(user, uuid);
      if (row.state === 'ready') return;
      if (row.state === 'failed') throw new Conflict(row.error ?? 'The upload failed.');
      if (row.state === 'processing') throw new Conflict('The upload is being processed.');
      const chunks = await repo.chunks(uuid);
      const have = new Set(chunks.map((c) => c.chunkIndex));
      const missing = Array.from({ length: row.totalChunks }, (_, i) => i).filter((i) => !have.has(i));
      if (missing.length > 0) throw new Conflict(`The upload is missing chunks ${missing.join(', ')}.`);
      if (!(await repo.claimForProcessing(uuid, ctx.clock.now()))) {
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
        await repo.deleteChunks(uuid);
        await repo.update(uuid, {
          state: 'failed',
          error: 'The upload could not be joined.',
          updatedAt: ctx.clock.now(),
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
      const chunks = await repo.chunksOf(rows.map((r) => r.uuid));
      return Promise.all(
        rows.map((row) =>
          statusOf(
            row,
            chunks.filter((c) => c.uploadUuid === row.uuid).map((c) => c.chunkIndex),
          ),
        ),
      );
    },

    /** Cancels the upload: its bytes and its row go. */
    async cancel(sessionUser: SessionUser | null, uuid: string): Promise<void> {
      const user = requireUser(sessionUser);
      const row = await ownUpload(user, uuid);
      await removeBytes(row);
      await repo.delete(uuid);
    },

    /** The processed upload `uuid` of `user`, for POST /api/files. */
    async readyUpload(user: SessionUser, uuid: string): Promise<ReadyUpload> {
      const row = await ownUpload(user, uuid);
      if (row.state !== 'ready' || !row.audioType) throw new Conflict('The upload is not finished.');
      return {
        uuid: row.uuid,
        fileName: row.fileName,
        audioKey: audioKeyOf(row.uuid, row.audioType),
        audioType: row.audioType,
        codec: row.codec ?? '',
        duration: row.duration ?? 0,
        size: row.size ?? 0,
        waveform: row.waveform ?? [],
        loudness: row.loudness,
      };
    },

    /** Deletes the upload's row once a file owns its audio (the bytes stay: they are the file's). */
    async forget(uuid: string): Promise<void> {
      await repo.delete(uuid);
    },

    /**
     * Removes uploads not touched since `before` with their bytes (an upload already claimed
     * by a file keeps its audio). Answers how many went.
     */
    async removeAbandoned(before: Date): Promise<number> {
      const rows = await repo.abandoned(before);
      for (const row of rows) {
        await removeBytes(row);
        await repo.delete(row.uuid);
      }
      return rows.length;
    },
  };
}
