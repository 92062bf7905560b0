import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Config } from '../config.ts';
import { loadOnDemand } from './load-on-demand.ts';
import {
  checkKey,
  checkPartNumber,
  checkSize,
  exactLength,
  type Storage,
  sendStream,
} from './storage-core.ts';

/** Parts of a stream of unknown length that `put` sends up: at most two are held at a time. */
const PUT_PART_BYTES = 8 * 1024 * 1024;

/** An S3 bucket (AWS or any S3-compatible service); keys are the same as on disk. */
export function s3Storage(config: S3Config): Storage {
  // The AWS SDK (about 8 MB resident) loads with the first bucket, not at every start (decision 027).
  const {
    AbortMultipartUploadCommand,
    CompleteMultipartUploadCommand,
    CopyObjectCommand,
    CreateMultipartUploadCommand,
    DeleteObjectCommand,
    GetObjectCommand,
    HeadBucketCommand,
    HeadObjectCommand,
    PutObjectCommand,
    S3Client,
    S3ServiceException,
    UploadPartCommand,
  } = loadOnDemand('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { Upload } = loadOnDemand('@aws-sdk/lib-storage') as typeof import('@aws-sdk/lib-storage');

  function statusOf(err: unknown): number | undefined {
    return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
  }

  function isNoSuchUpload(err: unknown): boolean {
    return (
      err instanceof S3ServiceException &&
      (err.name === 'NoSuchUpload' || err.$metadata.httpStatusCode === 404)
    );
  }

  const settings = {
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksums only where S3 demands them: S3-compatible servers often know none of them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  } as const;
  const client = new S3Client(settings);
  // A part's body is a stream read once: the SDK must not send it again after a failure
  // (the uploader's client sends the chunk again instead).
  const partClient = new S3Client({ ...settings, maxAttempts: 1 });
  const Bucket = config.bucket;

  return {
    async put(key, body) {
      checkKey(key);
      if (Buffer.isBuffer(body)) {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
        return;
      }
      // Length unknown: a multipart upload of fixed-size parts, aborted on failure.
      await new Upload({
        client,
        params: { Bucket, Key: key, Body: body },
        partSize: PUT_PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    },

    async stat(key) {
      checkKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    },

    createReadStream(key, range) {
      checkKey(key);
      const out = new PassThrough();
      const abort = new AbortController();
      // A reader that goes away (a closed connection) stops the download.
      out.once('close', () => abort.abort());
      client
        .send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
          { abortSignal: abort.signal },
        )
        .then((res) => pipeline(res.Body as Readable, out))
        .catch((err: unknown) => {
          if (!out.destroyed) out.destroy(err as Error);
        });
      return out;
    },

    async openToSend(key, range) {
      checkKey(key);
      const res = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${range.start}-${range.end}` }),
      );
      return { writeTo: (out) => sendStream(res.Body as Readable, out) };
    },

    async readRange(key, range) {
      checkKey(key);
      const res = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${range.start}-${range.end}` }),
      );
      const bytes = Buffer.from(
        await (res.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
      if (bytes.length !== range.end - range.start + 1)
        throw new Error(`${key} is shorter than the range read`);
      return bytes;
    },

    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async startMultipart(key) {
      checkKey(key);
      const res = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
      if (!res.UploadId) throw new Error('The store gave no upload id.');
      return res.UploadId;
    },

    async putPart(key, uploadId, partNumber, body, size) {
      checkKey(key);
      checkPartNumber(partNumber);
      checkSize(size);
      // The body goes straight through; a stream of another length stops the request.
      const abort = new AbortController();
      const counted = exactLength(size);
      let streamError: unknown;
      const flowing = pipeline(body, counted).catch((err: unknown) => {
        streamError = err;
        abort.abort();
        throw err;
      });
      flowing.catch(() => undefined);
      try {
        const [res] = await Promise.all([
          partClient.send(
            new UploadPartCommand({
              Bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: partNumber,
              ContentLength: size,
              Body: counted,
            }),
            { abortSignal: abort.signal },
          ),
          flowing,
        ]);
        if (!res.ETag) throw new Error('The store gave no tag for the part.');
        return { etag: res.ETag };
      } catch (err) {
        counted.destroy();
        body.destroy();
        throw streamError ?? err;
      }
    },

    async completeMultipart(key, uploadId, parts) {
      checkKey(key);
      if (parts.length === 0) throw new Error('A multipart upload needs at least one part.');
      for (const part of parts) checkPartNumber(part.partNumber);
      const ordered = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: ordered.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    },

    async abortMultipart(key, uploadId) {
      checkKey(key);
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
      } catch (err) {
        if (!isNoSuchUpload(err)) throw err;
      }
    },

    async move(fromKey, toKey) {
      checkKey(fromKey);
      checkKey(toKey);
      // Keys hold only letters, digits, '.', '-', '_' and one '/': nothing to escape.
      await client.send(new CopyObjectCommand({ Bucket, Key: toKey, CopySource: `${Bucket}/${fromKey}` }));
      await client.send(new DeleteObjectCommand({ Bucket, Key: fromKey }));
    },

    async check() {
      // One attempt: a health check that waits through retries answers too late to matter.
      await partClient.send(new HeadBucketCommand({ Bucket }));
    },
  };
}
