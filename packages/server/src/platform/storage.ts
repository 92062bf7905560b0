import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.ts';

export interface StoredObject {
  size: number;
  modified: Date;
}

/** Inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where media bytes live. Keys look like 'audio/<name>.wav': a folder and a file name
 * of letters, digits, dots, dashes and underscores.
 */
export interface Storage {
  put(key: string, body: Buffer | Readable): Promise<void>;
  stat(key: string): Promise<StoredObject | null>;
  createReadStream(key: string, range?: ByteRange): Readable;
  delete(key: string): Promise<void>;
  /**
   * Multipart upload of one object: parts numbered from 1, sent in any order (by any server
   * process), each streamed through without being held in memory. Returns the store's upload id.
   */
  startMultipart(key: string): Promise<string>;
  /** Stores part `partNumber`; `size` is its exact byte count (a stream of another length fails). */
  putPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number): Promise<{ etag: string }>;
  /** Joins the parts, in part-number order, into the object `key`; only then is it visible. */
  completeMultipart(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  /** Renames an object (a rename on disk; copy then delete on S3). */
  move(fromKey: string, toKey: string): Promise<void>;
  /** Drops an unfinished upload and every part of it (no error when it is already gone). */
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z]+\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..');
}

/** A folder on the local disk (DATA_DIR/media by default). */
export function localStorage(root: string): Storage {
  const pathOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write beside the target and rename, so readers never see a half-written file.
      const temp = `${target}.${process.pid}.${Date.now()}.part`;
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp));
      await fs.rename(temp, target);
    },
    async stat(key) {
      try {
        const s = await fs.stat(pathOf(key));
        return s.isFile() ? { size: s.size, modified: s.mtime } : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    createReadStream(key, range) {
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : undefined);
    },
    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
    },
  };
}

export function createStorage(config: Config): Storage {
  return localStorage(path.join(config.dataDir, 'media'));
}
