import type { FilePeaks, filePeaksQuery } from '@mesmer/shared/api/files';
import { chooseLevel, peakLevel } from '@mesmer/shared/domain/waveform-peaks';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { SessionUser } from '../../platform/access.ts';
import type { Storage } from '../../platform/storage.ts';
import {
  decodePeaksHeader,
  decodeStored,
  PEAKS_HEADER_BYTES,
  type PeaksHeader,
  peaksKeyOf,
  storePeaks,
} from '../uploads/index.ts';
import { createFileEditingRepo, type EditableFile } from './file-editing.repo.ts';
import type { FileEditingService } from './file-editing.service.ts';

/** An answer with what identifies it for a conditional request; no tag when it must not be kept. */
export interface PeaksAnswer {
  peaks: FilePeaks;
  etag: string | null;
}

interface StoredPeaks {
  key: string;
  header: PeaksHeader;
}

/** Bumped when the stored form or the answer's meaning changes, so no cache keeps an old answer. */
const ANSWER_FORM = 1;

export type FilePeaksService = ReturnType<typeof createFilePeaksService>;

/**
 * The cue editor's waveform: windows of a file's peaks at the resolution of its zoom, read from the
 * stored levels (uploads/peaks-file.ts) one ranged read at a time. A file analysed before peaks were
 * kept (or whose upload was processed before) gets them at its first request: its audio is decoded
 * once, while concurrent requests for it wait on that one decode.
 */
export function createFilePeaksService({
  db,
  storage,
  fileEditing,
  log,
}: {
  db: Db;
  storage: Storage;
  fileEditing: FileEditingService;
  log: FastifyBaseLogger;
}) {
  const repo = createFileEditingRepo(db);
  // Per process, only while a decode runs: another process may decode the same file too, and both
  // store the same bytes.
  const making = new Map<number, Promise<StoredPeaks | null>>();

  async function storedHeader(key: string): Promise<PeaksHeader | null> {
    const bytes = await storage.readRange(key, { start: 0, end: PEAKS_HEADER_BYTES - 1 }).catch(() => null);
    return bytes ? decodePeaksHeader(bytes) : null;
  }

  /** Decodes the file's audio and stores its peaks; null when the audio cannot be read. */
  async function makePeaks(file: EditableFile): Promise<StoredPeaks | null> {
    const key = peaksKeyOf(file.uuid);
    try {
      const format = file.audioKey.split('.').pop() ?? '';
      const decoded = await decodeStored(storage, file.audioKey, format, file.duration);
      await storePeaks(storage, key, decoded.finePeaks);
      await repo.setPeaksKey(file.id, key);
      const header = await storedHeader(key);
      return header && { key, header };
    } catch (err) {
      log.warn({ fileId: file.id, err }, 'the peaks of a file could not be made');
      return null;
    }
  }

  /** Where the file's peaks are and their header, made first when they are missing. */
  async function storedPeaks(file: EditableFile): Promise<StoredPeaks | null> {
    if (file.peaksKey) {
      const header = await storedHeader(file.peaksKey);
      if (header) return { key: file.peaksKey, header };
    }
    let made = making.get(file.id);
    if (!made) {
      made = makePeaks(file).finally(() => making.delete(file.id));
      making.set(file.id, made);
    }
    return made;
  }

  return {
    async peaks(user: SessionUser | null, query: z.output<typeof filePeaksQuery>): Promise<PeaksAnswer> {
      const { file } = await fileEditing.editable(user, query.fileId);
      const stored = await storedPeaks(file);
      if (!stored || stored.header.baseMs <= 0) {
        return {
          peaks: {
            msPerPeak: query.msPerPeak,
            fromMs: query.fromMs,
            durationMs: file.duration,
            peaks: [],
            levels: [],
          },
          etag: null,
        };
      }
      const { key, header } = stored;
      const levels = header.lengths.map((_, i) => header.baseMs * header.factor ** i);
      const durationMs = file.duration > 0 ? file.duration : header.lengths[0] * header.baseMs;
      const toMs = Math.min(query.toMs, Math.max(durationMs, query.fromMs + 1));
      const level = chooseLevel(query.msPerPeak, query.fromMs, toMs, levels.length);
      const ms = levels[level];
      const length = header.lengths[level];
      const first = Math.min(Math.floor(query.fromMs / ms), length);
      const end = Math.min(Math.ceil(toMs / ms), length);
      const bytes =
        end > first
          ? await storage.readRange(key, {
              start: header.offsets[level] + first,
              end: header.offsets[level] + end - 1,
            })
          : Buffer.alloc(0);
      return {
        peaks: { msPerPeak: ms, fromMs: first * ms, durationMs, peaks: Array.from(bytes, peakLevel), levels },
        etag: `"peaks-${ANSWER_FORM}-${file.uuid}-${header.lengths[0]}-${ms}-${first}-${end}"`,
      };
    },
  };
}
