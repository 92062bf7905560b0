import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';

export interface StoredObject {
  size: number;
  modified: Date;
}

/** Inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Bytes opened for sending (Storage.openToSend). */
export interface Sending {
  /**
   * Writes the bytes to `out`, each chunk taken by `out` before the next is written, and resolves
   * with the bytes `out` took: fewer when it closed early. `out` is left open.
   */
  writeTo(out: Writable): Promise<number>;
}

/**
 * Where media bytes live. Keys look like 'audio/<name>.wav': a folder and a file name
 * of letters, digits, dots, dashes and underscores.
 */
export interface Storage {
  put(key: string, body: Buffer | Readable): Promise<void>;
  stat(key: string): Promise<StoredObject | null>;
  createReadStream(key: string, range?: ByteRange): Readable;
  /**
   * The bytes of `range` in memory, for small ranges (a player's seek): the read has no stream to set
   * up and take down. Rejects when the object is missing or shorter than the range.
   */
  readRange(key: string, range: ByteRange): Promise<Buffer>;
  /**
   * Opens the bytes of `range` for sending (a download, a player's open-ended range); rejects when the
   * object is missing. The caller must then send them, once.
   */
  openToSend(key: string, range: ByteRange): Promise<Sending>;
  delete(key: string): Promise<void>;
  /**
   * Multipart upload of one object: parts numbered from 1, sent in any order (by any server
   * process), each streamed through without being held in memory. Returns the store's upload id.
   */
  startMultipart(key: string): Promise<string>;
  /** Stores part `partNumber`; `size` is its exact byte count (a stream of another length fails). */
  putPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    size: number,
  ): Promise<{ etag: string }>;
  /**
   * Joins the parts, in part-number order, into the object `key`; only then is it visible.
   * On S3 every part but the last must be at least 5 MiB.
   */
  completeMultipart(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string }[],
  ): Promise<void>;
  /** Renames an object (a rename on disk; copy then delete on S3). */
  move(fromKey: string, toKey: string): Promise<void>;
  /** Drops an unfinished upload and every part of it (no error when it is already gone). */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** Throws when the store cannot be used (the health check): one cheap call, nothing is written. */
  check(): Promise<void>;
}

const KEY_PATTERN = /^[a-z]+\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..');
}

/**
 * Writes `chunk` to `out`; resolves once `out` has handed it on (its write callback), after which the
 * chunk's memory may be used again: true, or false when `out` failed or was closed.
 */
export function writeAndWait(out: Writable, chunk: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (out.destroyed || out.writableEnded) resolve(false);
    else out.write(chunk, (err) => resolve(!err));
  });
}

/** `Sending.writeTo` for a store read as a stream: each chunk written and waited for. */
export async function sendStream(source: Readable, out: Writable): Promise<number> {
  let sent = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (!(await writeAndWait(out, chunk))) break;
      sent += chunk.length;
    }
  } finally {
    source.destroy();
  }
  return sent;
}

/** S3's limit on part numbers; the local folder keeps the same one. */
const MAX_PART_NUMBER = 10_000;

/**
 * Passes exactly `size` bytes through; fails as soon as more arrive, or at the end when fewer did.
 * Nothing is held: each chunk goes straight on.
 */
export function exactLength(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > size) callback(new Error(`The part is longer than its size of ${size} bytes.`));
      else callback(null, chunk);
    },
    flush(callback) {
      callback(seen === size ? null : new Error(`The part has ${seen} bytes, not ${size}.`));
    },
  });
}

export function checkPartNumber(partNumber: number) {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new Error(`Invalid part number: ${partNumber}`);
  }
}

export function checkSize(size: number) {
  if (!Number.isSafeInteger(size) || size < 0) throw new Error(`Invalid part size: ${size}`);
}

export function checkKey(key: string) {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
}
