import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ByteRange,
  checkKey,
  checkPartNumber,
  checkSize,
  exactLength,
  type Storage,
  writeAndWait,
} from './storage-core.ts';

const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** A file open for reading, with what fstat said of it when it was opened. */
interface OpenFile {
  handle: FileHandle;
  size: number;
  modified: Date;
}

interface KeptOpen {
  /** Null when there is no such file (or it is not a file): such answers are not kept. */
  file: Promise<OpenFile | null>;
  readers: number;
  /** No longer handed out: closed when its last reader is done. */
  retired: boolean;
}

/**
 * Each of the two buffers a sent file goes through (openToSend: downloads, open-ended ranges). They are
 * reused from chunk to chunk, one read into while the other is written: a fresh buffer per chunk is
 * fresh memory from the system (npm start's MALLOC_MMAP_THRESHOLD_), its pages faulted in at every
 * chunk (decision 037: downloads 0.3× → about 1× nginx's MB/s).
 */
const SEND_CHUNK_BYTES = 1024 * 1024;

/** How long a file opened for range reads is kept open from its opening (decision 036). */
const KEEP_OPEN_MS = 2000;
/** Files kept open at most; beyond, a read opens and closes its own (the process's descriptors are few). */
const MAX_KEPT_OPEN = 256;

/**
 * Files open for reading by path, shared by every local store of the process: the requests of a
 * playing file (each seek, each 64 KiB range) cost one read each instead of a stat, an open, a read
 * and a close. A file is kept open KEEP_OPEN_MS from its opening, so a change by another process is
 * seen within that time; this process's own writes, moves and deletes let go of it at once.
 */
const keptOpen = new Map<string, KeptOpen>();

function retire(kept: KeptOpen) {
  kept.retired = true;
  if (kept.readers === 0) kept.file.then((open) => open?.handle.close()).catch(() => undefined);
}

/** Stops handing out the kept opening of `file`; readers under way finish with it. */
function letGo(file: string) {
  const kept = keptOpen.get(file);
  if (!kept) return;
  keptOpen.delete(file);
  retire(kept);
}

async function openForReading(file: string): Promise<OpenFile | null> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  try {
    const s = await handle.stat();
    if (s.isFile()) return { handle, size: s.size, modified: s.mtime };
  } catch (err) {
    await handle.close();
    throw err;
  }
  await handle.close();
  return null;
}

/** `use` with `file` open (null when missing), sharing a kept opening of it. */
async function withOpenFile<T>(file: string, use: (open: OpenFile | null) => Promise<T> | T): Promise<T> {
  let kept = keptOpen.get(file);
  if (!kept) {
    const entry: KeptOpen = { file: openForReading(file), readers: 0, retired: false };
    kept = entry;
    if (keptOpen.size < MAX_KEPT_OPEN) {
      keptOpen.set(file, entry);
      entry.file.then(
        (open) => {
          if (!open) letGo(file);
          else setTimeout(() => keptOpen.get(file) === entry && letGo(file), KEEP_OPEN_MS).unref();
        },
        () => letGo(file),
      );
    } else entry.retired = true;
  }
  kept.readers += 1;
  try {
    return await use(await kept.file);
  } finally {
    kept.readers -= 1;
    if (kept.retired && kept.readers === 0) retire(kept);
  }
}

/**
 * Writes `range` of the open file to `out` through two reused buffers, reading into one while the other
 * is written; resolves with the bytes `out` took.
 */
async function sendFromFile(handle: FileHandle, range: ByteRange, out: Writable): Promise<number> {
  const chunkBytes = Math.min(SEND_CHUNK_BYTES, range.end - range.start + 1);
  const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)];
  let sent = 0;
  let position = range.start;
  // The chunk being written (from the other buffer) and its length.
  let writing = Promise.resolve(true);
  let writingBytes = 0;
  for (let turn = 0; position <= range.end; turn ^= 1) {
    const buffer = buffers[turn];
    const length = Math.min(chunkBytes, range.end + 1 - position);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    if (bytesRead === 0) throw new Error('The file ended before the range sent.');
    if (!(await writing)) return sent;
    sent += writingBytes;
    writing = writeAndWait(out, bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    writingBytes = bytesRead;
    position += bytesRead;
  }
  return (await writing) ? sent + writingBytes : sent;
}

/** A folder on the local disk (DATA_DIR/media by default). */
export function localStorage(root: string): Storage {
  const pathOf = (key: string) => {
    checkKey(key);
    return path.join(root, key);
  };
  /** Parts of an unfinished upload: `<root>/.multipart/<uploadId>/<partNumber>` (no key can start with a dot). */
  const uploadDir = (uploadId: string) => {
    if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new Error(`Invalid upload id: ${uploadId}`);
    return path.join(root, '.multipart', uploadId);
  };
  /** A temporary name beside `target`, unique to this call. */
  const tempBeside = (target: string) => `${target}.${process.pid}.${randomBytes(6).toString('hex')}.part`;
  /**
   * The part's tag: its file's identity, size and modification time, so a part sent again
   * (a new file, renamed over the old one) gets another tag.
   */
  const etagOf = (s: { ino: bigint; size: bigint; mtimeNs: bigint }) =>
    [s.ino, s.size, s.mtimeNs].map((n) => n.toString(16)).join('-');

  return {
    async put(key, body) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write beside the target and rename, so readers never see a half-written file.
      const temp = tempBeside(target);
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp));
        await fs.rename(temp, target);
        letGo(target);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
    },
    async stat(key) {
      return withOpenFile(pathOf(key), (open) => open && { size: open.size, modified: open.modified });
    },
    createReadStream(key, range) {
      const bounds = range ? { start: range.start, end: range.end } : {};
      return createReadStream(pathOf(key), bounds);
    },
    async openToSend(key, range) {
      const handle = await fs.open(pathOf(key), 'r');
      return {
        async writeTo(out) {
          try {
            return await sendFromFile(handle, range, out);
          } finally {
            await handle.close();
          }
        },
      };
    },
    async readRange(key, range) {
      return withOpenFile(pathOf(key), async (open) => {
        const length = range.end - range.start + 1;
        if (!open || range.end >= open.size)
          throw new Error(`${key} is missing or shorter than the range read`);
        const bytes = Buffer.allocUnsafe(length);
        let read = 0;
        while (read < length) {
          const { bytesRead } = await open.handle.read(bytes, read, length - read, range.start + read);
          if (bytesRead === 0) throw new Error(`${key} ended before the range read`);
          read += bytesRead;
        }
        return bytes;
      });
    },
    async delete(key) {
      const file = pathOf(key);
      letGo(file);
      await fs.rm(file, { force: true });
    },

    async startMultipart(key) {
      pathOf(key);
      const uploadId = randomBytes(16).toString('hex');
      await fs.mkdir(uploadDir(uploadId), { recursive: true });
      return uploadId;
    },
    async putPart(key, uploadId, partNumber, body, size) {
      pathOf(key);
      checkPartNumber(partNumber);
      checkSize(size);
      const dir = uploadDir(uploadId);
      const target = path.join(dir, String(partNumber));
      const temp = tempBeside(target);
      try {
        // 'wx' on a fresh name in the upload's folder: fails when the upload is gone.
        await pipeline(body, exactLength(size), createWriteStream(temp, { flags: 'wx' }));
        await fs.rename(temp, target);
      } catch (err) {
        body.destroy();
        await fs.rm(temp, { force: true });
        if (isMissing(err)) throw new Error(`No such upload: ${uploadId}`);
        throw err;
      }
      return { etag: etagOf(await fs.stat(target, { bigint: true })) };
    },
    async completeMultipart(key, uploadId, parts) {
      const target = pathOf(key);
      const dir = uploadDir(uploadId);
      if (parts.length === 0) throw new Error('A multipart upload needs at least one part.');
      const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      const files: string[] = [];
      for (const [i, part] of ordered.entries()) {
        checkPartNumber(part.partNumber);
        if (i > 0 && ordered[i - 1].partNumber === part.partNumber) {
          throw new Error(`Part ${part.partNumber} is listed twice.`);
        }
        const file = path.join(dir, String(part.partNumber));
        const s = await fs.stat(file, { bigint: true }).catch((err) => {
          if (isMissing(err)) return null;
          throw err;
        });
        if (!s || etagOf(s) !== part.etag)
          throw new Error(`Part ${part.partNumber} is missing or was replaced.`);
        files.push(file);
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = tempBeside(target);
      try {
        // One pipeline over every part in turn: the target stream gets one set of listeners.
        await pipeline(async function* () {
          for (const file of files) yield* createReadStream(file);
        }, createWriteStream(temp));
        await fs.rename(temp, target);
        letGo(target);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
    async abortMultipart(key, uploadId) {
      pathOf(key);
      await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
    },
    async move(fromKey, toKey) {
      const from = pathOf(fromKey);
      const to = pathOf(toKey);
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to);
      letGo(from);
      letGo(to);
    },
    async check() {
      // The folder is made with the first file: missing is fine where it can be made.
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, constants.R_OK | constants.W_OK);
    },
  };
}
