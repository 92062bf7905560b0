import {
  coarserLevel,
  levelCountFor,
  MAX_PEAK_LEVELS,
  PEAK_BASE_MS,
  PEAK_LEVEL_FACTOR,
} from '@mesmer/shared/domain/waveform-peaks';
import type { Storage } from '../../platform/storage.ts';

/**
 * The stored form of a track's peaks at every level (shared/domain/waveform-peaks.ts): one byte a
 * peak, so an hour is about 0.96 MB, and a window of any level is one ranged read.
 *
 * Little-endian: 'MPK1', PEAK_BASE_MS, PEAK_LEVEL_FACTOR, the level count, then MAX_PEAK_LEVELS
 * level lengths (unused ones 0), all uint32 (64 bytes); then the levels, finest first.
 */
export const PEAKS_HEADER_BYTES = 64;
const MAGIC = 'MPK1';

/** Where a file's peaks are kept: by its uuid (an upload's server id becomes it). */
export const peaksKeyOf = (uuid: string) => `peaks/${uuid}.bin`;

export interface PeaksHeader {
  baseMs: number;
  factor: number;
  /** Peaks in each level, finest first. */
  lengths: number[];
  /** Where each level starts in the stored bytes. */
  offsets: number[];
}

/** Every level of `fine` (the finest peaks) in the stored form. */
export function encodePeaks(fine: Uint8Array): Buffer {
  const levels = [fine];
  const count = levelCountFor(fine.length);
  while (levels.length < count) levels.push(coarserLevel(levels[levels.length - 1]));
  const header = Buffer.alloc(PEAKS_HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(PEAK_BASE_MS, 4);
  header.writeUInt32LE(PEAK_LEVEL_FACTOR, 8);
  header.writeUInt32LE(levels.length, 12);
  levels.forEach((level, i) => {
    header.writeUInt32LE(level.length, 16 + 4 * i);
  });
  return Buffer.concat([header, ...levels]);
}

/** The header of stored peaks, or null when the bytes are not peaks of this form. */
export function decodePeaksHeader(bytes: Buffer): PeaksHeader | null {
  if (bytes.length < PEAKS_HEADER_BYTES || bytes.toString('latin1', 0, 4) !== MAGIC) return null;
  const count = bytes.readUInt32LE(12);
  if (count < 1 || count > MAX_PEAK_LEVELS) return null;
  const lengths: number[] = [];
  const offsets: number[] = [];
  let offset = PEAKS_HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt32LE(16 + 4 * i);
    offsets.push(offset);
    lengths.push(length);
    offset += length;
  }
  return { baseMs: bytes.readUInt32LE(4), factor: bytes.readUInt32LE(8), lengths, offsets };
}

/** Stores `fine`'s levels under `key`. */
export async function storePeaks(storage: Storage, key: string, fine: Uint8Array): Promise<void> {
  await storage.put(key, encodePeaks(fine));
}
