import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Config } from '../config.ts';

/** The parts of s3rver (an in-process S3-compatible server with no types of its own) used here. */
interface S3rverObject {
  content: Readable | null;
  range?: { start: number; end: number };
}
interface S3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  getObject(
    bucket: string,
    key: string,
    options?: { start?: number; end?: number },
  ): Promise<S3rverObject | null>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<unknown>;
  putObjectMultipart(
    bucket: string,
    uploadId: string,
    parts: { number: number; etag: string }[],
  ): Promise<unknown>;
}
interface S3rverServer {
  store: S3rverStore;
  configureBuckets(): Promise<void>;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}
type S3rverClass = new (options: {
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverServer;
type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;

/** S3's smallest part, but for the last one. */
const MIN_PART_BYTES = 5 * 1024 * 1024;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
const S3Error = require('s3rver/lib/models/error') as S3ErrorClass;

/**
 * Where s3rver 3.7 falls short of S3 in what the storage uses, this fills in, so the tests hold
 * the code to what S3 does:
 * - AbortMultipartUpload (DELETE ...?uploadId=) is missing: answered here (204, or 404 NoSuchUpload);
 * - CompleteMultipartUpload ignores the parts' ETags: a part that is missing or whose ETag is not
 *   the stored one's is refused with InvalidPart, as S3 does;
 * - UploadPart stores parts of uploads that do not exist (or were aborted): refused with NoSuchUpload;
 * - CompleteMultipartUpload takes parts in any order and of any size: parts not in ascending order
 *   get InvalidPartOrder, and a part but the last under 5 MiB gets EntityTooSmall, as on S3;
 * - a Range ending at byte 0 (`bytes=0-0`) is read as "to the end": it reads one byte.
 */
function fillGaps(
  server: S3rverServer,
  directory: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const store = server.store;
  const uploadDir = (bucket: string, uploadId: string) =>
    path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);

  const noSuchUpload = () => new S3Error('NoSuchUpload', 'The specified upload does not exist.');

  const putPart = store.putPart.bind(store);
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    if (!(await fs.stat(path.join(uploadDir(bucket, uploadId), 'key')).catch(() => null))) {
      content.resume();
      throw noSuchUpload();
    }
    return putPart(bucket, uploadId, partNumber, content);
  };

  const complete = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.number <= parts[i - 1].number) {
        throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order.');
      }
      const stored = await fs
        .readFile(path.join(uploadDir(bucket, uploadId), `${part.number}.md5`), 'utf8')
        .catch(() => null);
      if (stored !== part.etag) {
        throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found.', {
          PartNumber: String(part.number),
        });
      }
      const size = (await fs.stat(path.join(uploadDir(bucket, uploadId), String(part.number)))).size;
      if (i < parts.length - 1 && size < MIN_PART_BYTES) {
        throw new S3Error(
          'EntityTooSmall',
          'Your proposed upload is smaller than the minimum allowed object size.',
        );
      }
    }
    return complete(bucket, uploadId, parts);
  };

  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (object?.content && options?.end === 0) {
      object.content.destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      object.range = { start: 0, end: 0 };
    }
    return object;
  };

  const handle = server.callback();
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const uploadId = url.searchParams.get('uploadId');
    if (req.method !== 'DELETE' || uploadId === null) return handle(req, res);
    const bucket = decodeURIComponent(url.pathname.split('/')[1] ?? '');
    const dir =
      /^[0-9a-f]+$/.test(uploadId) && /^[a-z0-9.-]+$/.test(bucket) ? uploadDir(bucket, uploadId) : null;
    req.resume();
    void (async () => {
      if (dir?.startsWith(directory) && (await fs.stat(dir).catch(() => null))) {
        await fs.rm(dir, { recursive: true, force: true });
        res.writeHead(204).end();
      } else {
        res
          .writeHead(404, { 'content-type': 'application/xml' })
          .end(
            '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
              '<Message>The specified upload does not exist.</Message></Error>',
          );
      }
    })();
  };
}

export interface TestS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Overrides for createTestApp / testConfig: the app keeps its media in this bucket. */
  config: { s3: S3Config };
  /** The same as environment variables, for a server started as a process (end-to-end, bench). */
  env: Record<
    'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY',
    string
  >;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts an S3-compatible server in this process on a free port of 127.0.0.1, keeping its
 * objects in a new temporary folder, with one empty bucket. s3rver accepts the key pair
 * S3RVER / S3RVER and checks request signatures.
 */
export async function startS3Server({
  bucket = 'mesmer-test',
}: {
  bucket?: string;
} = {}): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-s3-'));
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }] });
  await s3rver.configureBuckets();
  const server = http.createServer(fillGaps(s3rver, directory));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    config: {
      s3: { bucket, region, endpoint, credentials: { accessKeyId, secretAccessKey }, forcePathStyle: true },
    },
    env: {
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
