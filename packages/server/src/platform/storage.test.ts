import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../test/s3-server.ts';
import { localStorage } from './local-storage.ts';
import { s3Storage } from './s3-storage.ts';
import type { Storage } from './storage-core.ts';

interface Backend {
  name: string;
  /** The smallest part but the last that the store joins (S3: 5 MiB). */
  minPartBytes: number;
  /** Makes an empty store; `stop` removes whatever it used. */
  start(): Promise<{ storage: Storage; stop(): Promise<void> }>;
}

const local: Backend = {
  name: 'local folder',
  minPartBytes: 0,
  async start() {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-storage-'));
    return { storage: localStorage(root), stop: () => fs.rm(root, { recursive: true, force: true }) };
  },
};

const s3: Backend = {
  name: 'S3 (s3rver)',
  minPartBytes: 5 * 1024 * 1024,
  async start() {
    const server = await startS3Server();
    return { storage: s3Storage(server.config.s3), stop: () => server.stop() };
  },
};

const CYCLE = Buffer.from(Array.from({ length: 251 + 64 * 1024 }, (_, i) => i % 251));

/** n (at most 64 KiB) bytes of a repeating pattern starting at `seed`: a misplaced part shows. */
function pattern(n: number, seed = 0): Buffer {
  return Buffer.from(CYCLE.subarray(seed % 251, (seed % 251) + n));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A connection that copies what it takes (its chunks' memory is reused once taken) and takes each a
 * tick later; after `takes` chunks it fails, as a client that went away.
 */
function collector(takes = Number.POSITIVE_INFINITY) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (chunks.length === takes) return callback(new Error('The client went away.'));
      chunks.push(Buffer.from(chunk));
      setImmediate(callback);
    },
  });
  out.on('error', () => undefined);
  return { out, taken: () => Buffer.concat(chunks) };
}

/** A stream of `count` chunks of `size` bytes each, made as it is read. */
function generated(count: number, size: number, seed = 0): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === count) this.push(null);
      else this.push(pattern(size, seed + sent++));
    },
  });
}

describe.each([local, s3])('storage: $name', (backend) => {
  let storage: Storage;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, stop } = await backend.start());
  });
  afterAll(() => stop());

  it('passes its health check while it can be reached', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('puts a buffer, states its size and reads it back whole and by ranges', async () => {
    const bytes = pattern(5000);
    await storage.put('audio/whole.wav', bytes);
    const stat = await storage.stat('audio/whole.wav');
    expect(stat?.size).toBe(5000);
    expect(stat?.modified).toBeInstanceOf(Date);
    expect((await readAll(storage.createReadStream('audio/whole.wav'))).equals(bytes)).toBe(true);
    expect(await readAll(storage.createReadStream('audio/whole.wav', { start: 0, end: 0 }))).toEqual(
      bytes.subarray(0, 1),
    );
    expect(await readAll(storage.createReadStream('audio/whole.wav', { start: 100, end: 1099 }))).toEqual(
      bytes.subarray(100, 1100),
    );
    expect(await readAll(storage.createReadStream('audio/whole.wav', { start: 4990, end: 4999 }))).toEqual(
      bytes.subarray(4990),
    );
  });

  it('reads ranges into memory, and sees the object replaced, moved or deleted at once', async () => {
    const bytes = pattern(5000);
    await storage.put('audio/ranges.wav', bytes);
    expect(await storage.readRange('audio/ranges.wav', { start: 0, end: 0 })).toEqual(bytes.subarray(0, 1));
    expect(await storage.readRange('audio/ranges.wav', { start: 100, end: 1099 })).toEqual(
      bytes.subarray(100, 1100),
    );
    await expect(storage.readRange('audio/ranges.wav', { start: 4990, end: 5000 })).rejects.toThrow();
    await expect(storage.readRange('audio/never.wav', { start: 0, end: 9 })).rejects.toThrow();

    // Right after reads of the old object: the new one's size and bytes.
    const replaced = pattern(3000, 7);
    await storage.put('audio/ranges.wav', replaced);
    expect((await storage.stat('audio/ranges.wav'))?.size).toBe(3000);
    expect(await storage.readRange('audio/ranges.wav', { start: 0, end: 2999 })).toEqual(replaced);

    await storage.move('audio/ranges.wav', 'audio/moved.wav');
    expect(await storage.stat('audio/ranges.wav')).toBeNull();
    expect(await storage.readRange('audio/moved.wav', { start: 10, end: 19 })).toEqual(
      replaced.subarray(10, 20),
    );
    await storage.delete('audio/moved.wav');
    expect(await storage.stat('audio/moved.wav')).toBeNull();
    await expect(storage.readRange('audio/moved.wav', { start: 0, end: 9 })).rejects.toThrow();
  });

  it('answers reads at the same time from one object, ranges and whole', async () => {
    const bytes = Buffer.concat(Array.from({ length: 4 }, (_, i) => pattern(64 * 1024, i)));
    await storage.put('audio/busy.wav', bytes);
    const ranges = Array.from({ length: 40 }, (_, i) => ({ start: i * 6000, end: i * 6000 + 5999 }));
    const [reads, whole] = await Promise.all([
      Promise.all(ranges.map((range) => storage.readRange('audio/busy.wav', range))),
      readAll(storage.createReadStream('audio/busy.wav')),
    ]);
    reads.forEach((read, i) => {
      expect(read.equals(bytes.subarray(ranges[i].start, ranges[i].end + 1)), `range ${i}`).toBe(true);
    });
    expect(whole.equals(bytes)).toBe(true);
  });

  it('sends ranges to a connection chunk by chunk, and stops when the connection goes away', async () => {
    // Forty 64 KiB pieces and 7 bytes: more than two send buffers, ending in a short chunk.
    const bytes = Buffer.concat([...Array.from({ length: 40 }, (_, i) => pattern(64 * 1024, i)), pattern(7)]);
    await storage.put('audio/sent.wav', bytes);
    for (const range of [
      { start: 0, end: bytes.length - 1 },
      { start: 1000, end: 2_300_000 },
      { start: 5, end: 5 },
    ]) {
      const { out, taken } = collector();
      const sending = await storage.openToSend('audio/sent.wav', range);
      expect(await sending.writeTo(out)).toBe(range.end - range.start + 1);
      expect(taken().equals(bytes.subarray(range.start, range.end + 1)), JSON.stringify(range)).toBe(true);
      expect(out.writableEnded).toBe(false);
    }

    const gone = collector(1);
    const whole = await storage.openToSend('audio/sent.wav', { start: 0, end: bytes.length - 1 });
    const sent = await whole.writeTo(gone.out);
    expect(sent).toBe(gone.taken().length);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(bytes.length);
    expect(gone.taken().equals(bytes.subarray(0, sent))).toBe(true);

    await expect(storage.openToSend('audio/never.wav', { start: 0, end: 9 })).rejects.toThrow();
  });

  it('puts a stream of unknown length and replaces what was there', async () => {
    await storage.put('audio/stream.wav', Buffer.from('old'));
    await storage.put('audio/stream.wav', generated(40, 1000));
    const back = await readAll(storage.createReadStream('audio/stream.wav'));
    expect(back.length).toBe(40_000);
    expect(back.subarray(39_000)).toEqual(pattern(1000, 39));
  });

  it('answers null for a missing key, deletes, and deleting twice is fine', async () => {
    expect(await storage.stat('audio/never.wav')).toBeNull();
    await storage.put('audio/gone.wav', Buffer.from('bytes'));
    await storage.delete('audio/gone.wav');
    expect(await storage.stat('audio/gone.wav')).toBeNull();
    await storage.delete('audio/gone.wav');
  });

  it('reading a missing key fails on the stream', async () => {
    await expect(readAll(storage.createReadStream('audio/never.wav'))).rejects.toThrow();
  });

  it('refuses keys that are not a folder and a plain file name', async () => {
    for (const key of [
      '../etc/passwd',
      'audio/../x',
      'audio',
      '/abs/x',
      'Audio/x',
      'audio/.hidden',
      'a/b/c',
    ]) {
      await expect(storage.stat(key), key).rejects.toThrow('Invalid storage key');
    }
    await expect(storage.startMultipart('audio/../x')).rejects.toThrow('Invalid storage key');
  });

  it('joins parts sent out of order in part-number order; the object appears only on completion', async () => {
    const key = 'staging/multi.bin';
    const uploadId = await storage.startMultipart(key);
    // S3's smallest part but the last is 5 MiB.
    const bodies = [
      await readAll(generated(80, 64 * 1024, 1)),
      await readAll(generated(80, 64 * 1024, 2)),
      pattern(1234, 3),
    ];
    const tags: { partNumber: number; etag: string }[] = [];
    for (const partNumber of [3, 1, 2]) {
      const body = bodies[partNumber - 1];
      const { etag } = await storage.putPart(key, uploadId, partNumber, Readable.from([body]), body.length);
      expect(etag).toEqual(expect.any(String));
      tags.push({ partNumber, etag });
    }
    expect(await storage.stat(key)).toBeNull();
    await storage.completeMultipart(key, uploadId, tags);
    const size = 10 * 1024 * 1024 + 1234;
    expect((await storage.stat(key))?.size).toBe(size);
    expect((await readAll(storage.createReadStream(key))).equals(Buffer.concat(bodies))).toBe(true);
    // Completed: the upload is gone, aborting it is harmless and leaves the object.
    await storage.abortMultipart(key, uploadId);
    expect((await storage.stat(key))?.size).toBe(size);
  });

  it('refuses to join a part under the store minimum that is not the last', async (ctx) => {
    if (backend.minPartBytes === 0) ctx.skip();
    const key = 'staging/small.bin';
    const uploadId = await storage.startMultipart(key);
    const tags = [];
    for (const partNumber of [1, 2]) {
      const { etag } = await storage.putPart(
        key,
        uploadId,
        partNumber,
        Readable.from([Buffer.alloc(10)]),
        10,
      );
      tags.push({ partNumber, etag });
    }
    await expect(storage.completeMultipart(key, uploadId, tags)).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
    await storage.abortMultipart(key, uploadId);
  });

  it('a part sent again replaces the earlier one (with a new tag)', async () => {
    const key = 'staging/again.bin';
    const uploadId = await storage.startMultipart(key);
    const first = await storage.putPart(key, uploadId, 1, Readable.from([Buffer.from('aaaa')]), 4);
    const second = await storage.putPart(key, uploadId, 1, Readable.from([Buffer.from('bbbb')]), 4);
    expect(second.etag).not.toBe(first.etag);
    await expect(
      storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: first.etag }]),
    ).rejects.toThrow();
    await storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: second.etag }]);
    expect((await readAll(storage.createReadStream(key))).toString()).toBe('bbbb');
  });

  it('refuses a part whose stream is shorter or longer than its size, keeping none of it', async () => {
    const key = 'staging/sizes.bin';
    const uploadId = await storage.startMultipart(key);
    await expect(storage.putPart(key, uploadId, 1, Readable.from([Buffer.alloc(99)]), 100)).rejects.toThrow();
    await expect(
      storage.putPart(key, uploadId, 2, Readable.from([Buffer.alloc(60), Buffer.alloc(60)]), 100),
    ).rejects.toThrow();
    const good = await storage.putPart(key, uploadId, 3, Readable.from([Buffer.alloc(100, 1)]), 100);
    // Neither refused part can be completed; the good one can.
    await expect(
      storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: good.etag }]),
    ).rejects.toThrow();
    await expect(
      storage.completeMultipart(key, uploadId, [{ partNumber: 2, etag: good.etag }]),
    ).rejects.toThrow();
    await storage.completeMultipart(key, uploadId, [{ partNumber: 3, etag: good.etag }]);
    expect(await readAll(storage.createReadStream(key))).toEqual(Buffer.alloc(100, 1));
  });

  it('a failing body fails the part', async () => {
    const key = 'staging/broken.bin';
    const uploadId = await storage.startMultipart(key);
    const body = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(storage.putPart(key, uploadId, 1, body, 10)).rejects.toThrow();
    await storage.abortMultipart(key, uploadId);
  });

  it('abort drops every part; nothing is left and the upload takes no more parts', async () => {
    const key = 'staging/aborted.bin';
    const uploadId = await storage.startMultipart(key);
    const part = await storage.putPart(key, uploadId, 1, Readable.from([Buffer.alloc(10)]), 10);
    await storage.abortMultipart(key, uploadId);
    await storage.abortMultipart(key, uploadId);
    expect(await storage.stat(key)).toBeNull();
    await expect(
      storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: part.etag }]),
    ).rejects.toThrow();
    await expect(storage.putPart(key, uploadId, 2, Readable.from([Buffer.alloc(10)]), 10)).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
  });

  it('streams a 20 MB upload of 8 MB parts through', async () => {
    const key = 'staging/big.bin';
    const uploadId = await storage.startMultipart(key);
    const chunk = 64 * 1024;
    const parts = [
      { partNumber: 1, chunks: 128 },
      { partNumber: 2, chunks: 128 },
      { partNumber: 3, chunks: 64 },
    ];
    const tags = await Promise.all(
      parts.map(async ({ partNumber, chunks }) => ({
        partNumber,
        etag: (
          await storage.putPart(
            key,
            uploadId,
            partNumber,
            generated(chunks, chunk, partNumber * 1000),
            chunks * chunk,
          )
        ).etag,
      })),
    );
    await storage.completeMultipart(key, uploadId, tags);
    expect((await storage.stat(key))?.size).toBe(320 * chunk);
    // The first bytes of the second part follow the last of the first.
    const seam = await readAll(
      storage.createReadStream(key, { start: 128 * chunk - 2, end: 128 * chunk + 1 }),
    );
    expect(seam).toEqual(Buffer.concat([pattern(chunk, 1127).subarray(chunk - 2), pattern(2, 2000)]));
  });

  it('moves an object to another key', async () => {
    await storage.put('staging/to-move.bin', Buffer.from('moving'));
    await storage.move('staging/to-move.bin', 'audio/moved.bin');
    expect(await storage.stat('staging/to-move.bin')).toBeNull();
    expect((await readAll(storage.createReadStream('audio/moved.bin'))).toString()).toBe('moving');
    await expect(storage.move('staging/to-move.bin', 'audio/again.bin')).rejects.toThrow();
  });
});

describe('health checks of an unusable store', () => {
  it('fails for a local folder that cannot be made, and for a bucket that does not exist', async () => {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-storage-')), 'media');
    await fs.writeFile(file, 'a file where the folder should be');
    await expect(localStorage(file).check()).rejects.toThrow();
    const server = await startS3Server();
    try {
      await expect(s3Storage({ ...server.config.s3, bucket: 'no-such-bucket' }).check()).rejects.toThrow();
    } finally {
      await server.stop();
      await fs.rm(path.dirname(file), { recursive: true, force: true });
    }
  });
});

describe('local folder layout', () => {
  let root: string;
  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'mesmer-storage-'));
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('keeps parts under .multipart/<uploadId>/<partNumber> and removes them on completion', async () => {
    const storage = localStorage(root);
    const uploadId = await storage.startMultipart('staging/layout.bin');
    expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
    const part = await storage.putPart(
      'staging/layout.bin',
      uploadId,
      2,
      Readable.from([Buffer.from('xy')]),
      2,
    );
    expect(await fs.readdir(path.join(root, '.multipart', uploadId))).toEqual(['2']);
    await storage.completeMultipart('staging/layout.bin', uploadId, [{ partNumber: 2, etag: part.etag }]);
    expect(await fs.readdir(path.join(root, '.multipart'))).toEqual([]);
    expect(await fs.readdir(path.join(root, 'staging'))).toEqual(['layout.bin']);
  });

  it('a refused part leaves no file behind', async () => {
    const storage = localStorage(root);
    const uploadId = await storage.startMultipart('staging/short.bin');
    await expect(
      storage.putPart('staging/short.bin', uploadId, 1, Readable.from([Buffer.alloc(5)]), 6),
    ).rejects.toThrow('The part has 5 bytes, not 6.');
    await expect(
      storage.putPart('staging/short.bin', uploadId, 1, Readable.from([Buffer.alloc(7)]), 6),
    ).rejects.toThrow('The part is longer than its size of 6 bytes.');
    expect(await fs.readdir(path.join(root, '.multipart', uploadId))).toEqual([]);
  });

  it('refuses upload ids that are not its own hex ids', async () => {
    const storage = localStorage(root);
    for (const id of ['../../etc', 'ABCDEF', '', 'x'.repeat(32)]) {
      await expect(storage.abortMultipart('staging/x.bin', id), id).rejects.toThrow('Invalid upload id');
    }
  });
});
