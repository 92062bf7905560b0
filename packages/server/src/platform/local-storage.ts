import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, checkPartNumber, checkSize, exactLength, type Storage } from './storage-core.ts';

const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
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
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
    },
    async stat(key) {
      try {
        const s = await fs.stat(pathOf(key));
        return s.isFile() ? { size: s.size, modified: s.mtime } : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    createReadStream(key, range) {
      return createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : undefined);
    },
    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
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
    },
    async check() {
      // The folder is made with the first file: missing is fine where it can be made.
      await fs.mkdir(root, { recursive: true });
      await fs.access(root, constants.R_OK | constants.W_OK);
    },
  };
}
