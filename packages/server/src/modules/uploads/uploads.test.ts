import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { UPLOAD_HEADERS } from '@mesmer/shared/api/uploads';
import {
  ABANDONED_UPLOAD_MS,
  MAX_UNFINISHED_UPLOAD_BYTES,
  UNFINISHED_UPLOADS_FULL_MESSAGE,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@mesmer/shared/domain/upload-limits';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { files, uploadChunks, uploads } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { removeAudioFixtures, sineFile, truncatedM4a, truncatedWav } from '../../test/audio-fixtures.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile, createTier } from '../../test/library-factories.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { postUploadForm } from '../../test/uploads.ts';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const s3Server: TestS3Server = await startS3Server();
afterAll(() => s3Server.stop());

describe.each([
  ['local folder', null],
  ['S3 (s3rver)', s3Server],
] as const)('uploads on %s', async (_name, s3) => {
  const { app, clock, config } = await createTestApp(s3?.config ?? {});
  const db = app.ctx.db;
  const storage = createStorage(config);
  const mediaDir = path.join(config.dataDir, 'media');
  const MiB = 1024 * 1024;

  type Signed = TestUser & { token: string };
  let creator: Signed;
  let other: Signed;
  let listener: Signed;

  beforeAll(async () => {
    creator = await createSignedInUser(app, { username: 'creator', roles: ['Verified Creator'] });
    other = await createSignedInUser(app, { username: 'other', roles: ['Contributor'] });
    listener = await createSignedInUser(app, { username: 'listener' });
  });
  afterAll(() => removeAudioFixtures());

  type Fields = Record<string, string | number | boolean>;

  /** One POST /api/files/upload call: the fields in order, then the chunk part when given. */
  const post = (token: string | null, fields: Fields, chunk?: Buffer) =>
    postUploadForm(app, token, fields, chunk);

  function fieldsOf(uuid: string, index: number, total: number, extra: Fields = {}): Fields {
    return { uuid, fileName: 'My Track.mp3', secure: false, chunkIndex: index, totalChunks: total, ...extra };
  }

  /** Splits `bytes` into chunks of `size`. */
  function split(bytes: Buffer, size: number): Buffer[] {
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
    return out;
  }

  async function sendChunk(token: string, uuid: string, chunks: Buffer[], index: number) {
    return post(
      token,
      fieldsOf(uuid, index, chunks.length, { chunkSize: chunks[index].length }),
      chunks[index],
    );
  }

  async function complete(token: string, uuid: string, total: number) {
    return post(token, fieldsOf(uuid, 0, total));
  }

  /** Uploads `bytes` whole in one chunk and completes. */
  async function uploadWhole(token: string, bytes: Buffer, uuid = randomUUID()) {
    const sent = await sendChunk(token, uuid, [bytes], 0);
    expect(sent.statusCode, sent.body).toBe(200);
    return { uuid, res: await complete(token, uuid, 1) };
  }

  /**
   * Every object in media storage (keys), and on the local folder the unfinished uploads' parts
   * (.multipart/<uploadId>/<part>). S3 keeps parts out of listings: there, the parts are the
   * store's to drop on abort, which the storage suite checks.
   */
  async function storedKeys(): Promise<string[]> {
    if (s3) {
      const client = new S3Client({
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      client.destroy();
      return (listed.Contents ?? []).map((o) => o.Key as string).sort();
    }
    if (!fs.existsSync(mediaDir)) return [];
    return (fs.readdirSync(mediaDir, { recursive: true }) as string[])
      .filter((name) => fs.statSync(path.join(mediaDir, name)).isFile())
      .sort();
  }
  const keysOf = async (id: string) => (await storedKeys()).filter((k) => k.includes(id));

  /** Stored objects and parts that no upload row or file accounts for: must always be none. */
  async function orphans(): Promise<string[]> {
    const rows = await db.select().from(uploads);
    const fileUuids = new Set((await db.select({ uuid: files.uuid }).from(files)).map((f) => f.uuid));
    return (await storedKeys()).filter((key) => {
      const part = /^\.multipart\/([^/]+)\//.exec(key);
      if (part) return !rows.some((r) => r.storageUploadId === part[1] && r.state === 'receiving');
      const staged = /^uploads\/(.+)$/.exec(key);
      if (staged) return !rows.some((r) => r.id === staged[1] && r.state === 'processing');
      // The audio and the cue editor's peaks of a processed upload or of a file.
      const processed = /^(?:audio|peaks)\/([^.]+)\./.exec(key);
      if (processed)
        return (
          !rows.some((r) => r.id === processed[1] && r.state === 'ready') && !fileUuids.has(processed[1])
        );
      return true;
    });
  }
  afterEach(async () => {
    expect(await orphans()).toEqual([]);
  });
  const rowOf = async (uuid: string) => (await db.select().from(uploads).where(eq(uploads.uuid, uuid)))[0];
  /** The server's id of the upload with the client's handle `uuid` (what its stored keys carry). */
  const idOf = async (uuid: string) => (await rowOf(uuid)).id;
  const chunkRows = async (uuid: string) =>
    db
      .select()
      .from(uploadChunks)
      .where(eq(uploadChunks.uploadId, await idOf(uuid)));

  describe('POST /api/files/upload: the four formats end to end', () => {
    it.each(['mp3', 'm4a', 'wav', 'flac'] as const)(
      '%s is recognised, analysed and stored as audio',
      async (format) => {
        const bytes = fs.readFileSync(await sineFile(format));
        const { uuid, res } = await uploadWhole(creator.token, bytes);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ data: { uuid } });
        const row = await rowOf(uuid);
        expect(row).toMatchObject({ state: 'ready', audioType: format, size: bytes.length, error: null });
        expect(row.duration).toBeGreaterThan(2900);
        expect(row.duration).toBeLessThan(3200);
        expect(row.codec).toBe(
          { mp3: 'MPEG 1 Layer 3', m4a: 'MPEG-4/AAC', wav: 'PCM', flac: 'FLAC' }[format],
        );
        // About 1,000 peaks of a -20 dBFS sine: 0.1 each (lossy codecs wobble a little).
        expect(row.waveform?.length).toBeGreaterThanOrEqual(990);
        expect(row.waveform?.length).toBeLessThanOrEqual(1010);
        const middle = row.waveform?.slice(100, 900) ?? [];
        for (const peak of middle) expect(peak).toBeCloseTo(0.1, 1);
        // A -20 dBFS sine (mono) measures about -23 LUFS.
        expect(row.loudness).toBeGreaterThan(-24.5);
        expect(row.loudness).toBeLessThan(-21.5);
        // Stored under the server's id, which is neither the handle nor anything the client sent.
        expect(row.id).not.toBe(uuid);
        expect(await keysOf(uuid)).toEqual([]);
        expect(await keysOf(row.id)).toEqual([`audio/${row.id}.${format}`, `peaks/${row.id}.bin`]);
        // The cue editor's peaks: 5 ms each over about 3 s, the levels' header first.
        const peaks = await storage.stat(`peaks/${row.id}.bin`);
        expect(peaks?.size).toBeGreaterThan(64 + 590);
        expect(peaks?.size).toBeLessThan(64 + 650);
        const stored = await storage.stat(`audio/${row.id}.${format}`);
        expect(stored?.size).toBe(bytes.length);
        expect(await chunkRows(uuid)).toEqual([]);

        // What POST /api/files reads of it.
        const service = app.services.uploads;
        const ready = await service.readyUpload(
          { id: creator.id, username: 'creator', timezone: 'UTC', roles: [] },
          uuid,
        );
        expect(ready).toEqual({
          id: row.id,
          uuid,
          fileName: 'My Track.mp3',
          audioKey: `audio/${row.id}.${format}`,
          audioType: format,
          codec: row.codec,
          duration: row.duration,
          size: bytes.length,
          waveform: row.waveform,
          loudness: row.loudness,
          peaksKey: `peaks/${row.id}.bin`,
        });
      },
    );
  });

  describe('processing trusts nothing', () => {
    it('a text file named .mp3 gets 400 naming what it is, and leaves no bytes', async () => {
      const { uuid, res } = await uploadWhole(
        creator.token,
        Buffer.from('Just some words, not audio at all.\n'.repeat(50)),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Unsupported format: unknown. Upload mp3, m4a, wav or flac.');
      expect(await rowOf(uuid)).toMatchObject({ state: 'failed', error: res.json().error });
      expect(await keysOf(await idOf(uuid))).toEqual([]);
    });

    it('a PNG gets 400 naming png', async () => {
      const png = Buffer.concat([
        Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
        Buffer.alloc(200, 1),
      ]);
      const { uuid, res } = await uploadWhole(creator.token, png);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Unsupported format: png. Upload mp3, m4a, wav or flac.');
      expect(await keysOf(await idOf(uuid))).toEqual([]);
    });

    it('a truncated wav (its header promises more) gets 400 saying so', async () => {
      const whole = fs.statSync(await sineFile('wav')).size;
      const cut = fs.readFileSync(await truncatedWav());
      const { uuid, res } = await uploadWhole(creator.token, cut);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: `The file is truncated: it holds ${cut.length} of the ${whole} bytes its header announces.`,
      });
      expect(await keysOf(await idOf(uuid))).toEqual([]);
      expect((await rowOf(uuid)).state).toBe('failed');
    });

    it('an m4a cut before its index gets 400 corrupt', async () => {
      const { uuid, res } = await uploadWhole(creator.token, fs.readFileSync(await truncatedM4a()));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('The file is corrupt or truncated: its audio could not be read.');
      expect(await keysOf(await idOf(uuid))).toEqual([]);
    });
  });

  describe('size limits', () => {
    it('351 MB announced gets 413 before anything is stored', async () => {
      const uuid = randomUUID();
      const res = await post(
        creator.token,
        fieldsOf(uuid, 0, 5, { chunkSize: 1000, fileSize: 351_000_000 }),
        Buffer.alloc(1000, 1),
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: UPLOAD_TOO_LARGE_MESSAGE });
      expect(await rowOf(uuid)).toBeUndefined();
    });

    it('stored chunks plus the next one over the limit get 413 without an announced size', async () => {
      const uuid = randomUUID();
      const chunk = Buffer.alloc(6 * MiB, 1);
      const first = await post(creator.token, fieldsOf(uuid, 0, 5, { chunkSize: chunk.length }), chunk);
      expect(first.statusCode, first.body).toBe(200);
      // As if four 80 MB chunks were there already (saves writing 320 MB).
      const id = await idOf(uuid);
      await db.update(uploadChunks).set({ size: 80_000_000 }).where(eq(uploadChunks.uploadId, id));
      for (const index of [1, 2, 3]) {
        await db
          .insert(uploadChunks)
          .values({ uploadId: id, chunkIndex: index, size: 80_000_000, etag: 'x' });
      }
      const res = await post(
        creator.token,
        fieldsOf(uuid, 4, 5, { chunkSize: 30_000_001 }),
        Buffer.alloc(100, 1),
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ error: UPLOAD_TOO_LARGE_MESSAGE });
      const chunks = await chunkRows(uuid);
      expect(chunks.map((c) => c.chunkIndex).sort()).toEqual([0, 1, 2, 3]);
      await app.inject({
        method: 'DELETE',
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(creator.token),
      });
    });

    it('a chunk longer than its chunkSize is refused and nothing of it is kept', async () => {
      const uuid = randomUUID();
      const res = await post(
        creator.token,
        fieldsOf(uuid, 0, 1, { chunkSize: 1000 }),
        Buffer.alloc(300_000, 1),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'chunkSize: the chunk is longer than chunkSize.',
        field: 'chunkSize',
      });
      expect(await chunkRows(uuid)).toEqual([]);
      const id = await idOf(uuid);
      const status = await app.inject({
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(creator.token),
      });
      expect(status.json().receivedChunks).toEqual([]);
      await app.inject({
        method: 'DELETE',
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(creator.token),
      });
      expect(await keysOf(id)).toEqual([]);
    });
  });

  describe('over a real socket', () => {
    /** Starts a chunk call of `chunkSize` bytes; answers the response as soon as it comes. */
    function startChunk(port: number, fields: Fields, chunkSize: number) {
      const boundary = 'xxBOUNDARYxx';
      let head = '';
      for (const [name, value] of Object.entries(fields)) {
        head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      }
      head += `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\n\r\n`;
      const tail = `\r\n--${boundary}--\r\n`;
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/files/upload',
        headers: {
          ...authHeader(creator.token),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + chunkSize + Buffer.byteLength(tail),
        },
      });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
      req.write(head);
      return { req, answer, tail };
    }

    it('a chunk streams in; a file announced over the limit is refused before its bytes are sent', async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const uuid = randomUUID();
      const bytes = fs.readFileSync(await sineFile('flac'));
      const ok = startChunk(port, fieldsOf(uuid, 0, 1, { chunkSize: bytes.length }), bytes.length);
      ok.req.end(Buffer.concat([bytes, Buffer.from(ok.tail)]));
      expect((await ok.answer).status).toBe(200);
      expect((await complete(creator.token, uuid, 1)).statusCode).toBe(200);
      expect((await rowOf(uuid)).state).toBe('ready');

      const big = randomUUID();
      const refused = startChunk(
        port,
        fieldsOf(big, 0, 5, { chunkSize: 80_000_000, fileSize: 351_000_000 }),
        80_000_000,
      );
      refused.req.write(Buffer.alloc(1024 * 1024, 1));
      // The answer comes with 1 MB of the 80 MB sent.
      const answer = await refused.answer;
      refused.req.destroy();
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ error: UPLOAD_TOO_LARGE_MESSAGE });
      expect(await rowOf(big)).toBeUndefined();
    });
  });

  describe('chunks, resume and order', () => {
    it('chunks come in any order; status lists what the server holds; the missing ones resume', async () => {
      const bytes = fs.readFileSync(await sineFile('wav', 150)); // 13.2 MB: chunks of 5 MiB
      const chunks = split(bytes, 5 * MiB);
      expect(chunks).toHaveLength(3);
      const uuid = randomUUID();
      expect((await sendChunk(creator.token, uuid, chunks, 2)).statusCode).toBe(200);
      expect((await sendChunk(creator.token, uuid, chunks, 0)).statusCode).toBe(200);

      const status = await app.inject({
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(creator.token),
      });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toEqual({
        uuid,
        fileName: 'My Track.mp3',
        state: 'receiving',
        totalChunks: 3,
        receivedChunks: [0, 2],
        error: null,
        duration: null,
        audioType: null,
        createdAt: clock.now().toISOString(),
      });
      const early = await complete(creator.token, uuid, 3);
      expect(early.statusCode).toBe(409);
      expect(early.json().error).toBe('The upload is missing chunks 1.');

      // A chunk sent again replaces the one stored.
      expect((await sendChunk(creator.token, uuid, chunks, 0)).statusCode).toBe(200);
      expect((await sendChunk(creator.token, uuid, chunks, 1)).statusCode).toBe(200);
      const done = await complete(creator.token, uuid, 3);
      expect(done.statusCode, done.body).toBe(200);
      expect(await rowOf(uuid)).toMatchObject({
        state: 'ready',
        audioType: 'wav',
        size: bytes.length,
        duration: 150_000,
      });
      const id = await idOf(uuid);
      expect(await keysOf(id)).toEqual([`audio/${id}.wav`, `peaks/${id}.bin`]);
      // The same bytes, in order.
      const stored = await readAll(storage.createReadStream(`audio/${id}.wav`));
      expect(stored.equals(bytes)).toBe(true);
      // Completing again answers the same.
      expect((await complete(creator.token, uuid, 3)).json()).toEqual({ data: { uuid } });
    });

    it('refuses a small chunk that is not the last (S3 parts are at least 5 MiB)', async () => {
      const res = await post(
        creator.token,
        fieldsOf(randomUUID(), 0, 2, { chunkSize: 10 }),
        Buffer.alloc(10),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'chunkSize: every chunk but the last must be at least 5242880 bytes.',
        field: 'chunkSize',
      });
    });
  });

  describe('fields and access', () => {
    it.each([
      ['uuid', { uuid: 'nope' }],
      ['fileName', { fileName: '' }],
      ['chunkIndex', { chunkIndex: -1 }],
      ['totalChunks', { totalChunks: 0 }],
      ['chunkSize', { chunkSize: 0 }],
    ])('400 names %s', async (field, bad) => {
      const res = await post(
        creator.token,
        { ...fieldsOf(randomUUID(), 0, 1, { chunkSize: 4 }), ...bad },
        Buffer.from('abcd'),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(new RegExp(`^${field}: `));
      expect(res.json().field).toBe(field);
    });

    it('400 when chunkIndex is past totalChunks', async () => {
      const past = await post(
        creator.token,
        fieldsOf(randomUUID(), 1, 1, { chunkSize: 4 }),
        Buffer.from('abcd'),
      );
      expect(past.json()).toEqual({
        error: 'chunkIndex: must be less than totalChunks.',
        field: 'chunkIndex',
      });
    });

    it('400 when the body is not multipart', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/files/upload',
        headers: authHeader(creator.token),
        payload: { uuid: randomUUID() },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'body: must be multipart/form-data with the upload fields and a chunk.',
        field: 'body',
      });
    });

    it('401 signed out, 403 without an upload permission', async () => {
      const uuid = randomUUID();
      const anonymous = await post(null, fieldsOf(uuid, 0, 1, { chunkSize: 4 }), Buffer.from('abcd'));
      expect(anonymous.statusCode).toBe(401);
      const refused = await post(listener.token, fieldsOf(uuid, 0, 1, { chunkSize: 4 }), Buffer.from('abcd'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'You do not have permission to upload files.' });
      expect(await rowOf(uuid)).toBeUndefined();
      for (const url of [`/api/files/upload?uuid=${uuid}`, '/api/files/uploads']) {
        expect((await app.inject({ url })).statusCode).toBe(401);
      }
      expect((await app.inject({ method: 'DELETE', url: `/api/files/upload?uuid=${uuid}` })).statusCode).toBe(
        401,
      );
    });

    it("someone else's upload is 404 to completion, status, cancel and readyUpload", async () => {
      const { uuid } = await uploadWhole(creator.token, fs.readFileSync(await sineFile('flac')));
      // A chunk from another user with this handle starts their own upload: "two uploaders using the
      // same uuid" below.
      expect((await complete(other.token, uuid, 1)).statusCode).toBe(404);
      const headers = authHeader(other.token);
      expect((await app.inject({ url: `/api/files/upload?uuid=${uuid}`, headers })).statusCode).toBe(404);
      expect(
        (await app.inject({ method: 'DELETE', url: `/api/files/upload?uuid=${uuid}`, headers })).statusCode,
      ).toBe(404);
      const service = app.services.uploads;
      await expect(
        service.readyUpload({ id: other.id, username: 'other', timezone: 'UTC', roles: [] }, uuid),
      ).rejects.toMatchObject({ statusCode: 404, message: 'Upload not found.' });
      expect((await rowOf(uuid)).state).toBe('ready');
      const id = await idOf(uuid);
      expect(await keysOf(id)).toEqual([`audio/${id}.flac`, `peaks/${id}.bin`]);
    });

    it('400 names uuid on status and cancel', async () => {
      const headers = authHeader(creator.token);
      const status = await app.inject({ url: '/api/files/upload?uuid=bad', headers });
      expect(status.statusCode).toBe(400);
      expect(status.json().field).toBe('uuid');
      const cancel = await app.inject({ method: 'DELETE', url: '/api/files/upload?uuid=bad', headers });
      expect(cancel.statusCode).toBe(400);
    });
  });

  describe('list, cancel, readyUpload, forget and clean-up', () => {
    it("lists the viewer's uploads only, with their states", async () => {
      const res = await app.inject({ url: '/api/files/uploads', headers: authHeader(other.token) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ uploads: [] });
      const mine = await app.inject({ url: '/api/files/uploads', headers: authHeader(creator.token) });
      const states = (mine.json().uploads as { state: string }[]).map((u) => u.state);
      expect(states).toContain('ready');
      expect(states).toContain('failed');
    });

    it('cancel removes the parts and the row', async () => {
      const bytes = fs.readFileSync(await sineFile('wav', 150));
      const chunks = split(bytes, 5 * MiB);
      const uuid = randomUUID();
      await sendChunk(creator.token, uuid, chunks, 0);
      await sendChunk(creator.token, uuid, chunks, 2);
      const { storageUploadId } = await rowOf(uuid);
      if (!s3) expect(await keysOf(storageUploadId)).toHaveLength(2);
      const res = await app.inject({
        method: 'DELETE',
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(creator.token),
      });
      expect(res.statusCode).toBe(204);
      expect(await rowOf(uuid)).toBeUndefined();
      expect(await keysOf(storageUploadId)).toEqual([]);
    });

    it('readyUpload is 409 until processed; forget drops the row and keeps the audio', async () => {
      const service = app.services.uploads;
      const me = { id: creator.id, username: 'creator', timezone: 'UTC', roles: [] };
      const uuid = randomUUID();
      const chunk = fs.readFileSync(await sineFile('mp3'));
      await sendChunk(creator.token, uuid, [chunk], 0);
      await expect(service.readyUpload(me, uuid)).rejects.toMatchObject({
        statusCode: 409,
        message: 'The upload is not finished.',
      });
      await complete(creator.token, uuid, 1);
      const ready = await service.readyUpload(me, uuid);
      // POST /api/files makes the file row, then forgets the upload.
      const file = await createFile(db, { authorId: creator.id });
      await db.update(files).set({ uuid: ready.id, audioKey: ready.audioKey }).where(eq(files.id, file.id));
      await service.forget(ready.id);
      expect(await rowOf(uuid)).toBeUndefined();
      expect(await storage.stat(ready.audioKey)).not.toBeNull();
    });

    it('the hourly clean-up removes abandoned uploads with their bytes, never a claimed audio', async () => {
      const bytes = fs.readFileSync(await sineFile('wav', 150));
      const chunks = split(bytes, 5 * MiB);
      const abandoned = randomUUID();
      await sendChunk(creator.token, abandoned, chunks, 1);
      const abandonedParts = (await rowOf(abandoned)).storageUploadId;
      // Processed, and a file made from it, but the row was never forgotten (a crash between).
      const { uuid: claimed } = await uploadWhole(creator.token, fs.readFileSync(await sineFile('flac')));
      const claimedId = await idOf(claimed);
      const file = await createFile(db, { authorId: creator.id });
      await db.update(files).set({ uuid: claimedId }).where(eq(files.id, file.id));
      const fresh = randomUUID();
      clock.advance(23 * 3600_000);
      await sendChunk(creator.token, fresh, chunks, 0);
      clock.advance(2 * 3600_000);
      await app.services.cleanup.run();
      expect(await rowOf(abandoned)).toBeUndefined();
      expect(await keysOf(abandonedParts)).toEqual([]);
      expect(await rowOf(claimed)).toBeUndefined();
      expect(await keysOf(claimedId)).toEqual([`audio/${claimedId}.flac`, `peaks/${claimedId}.bin`]);
      expect((await rowOf(fresh)).state).toBe('receiving');
      if (!s3) expect(await keysOf((await rowOf(fresh)).storageUploadId)).toHaveLength(1);
    });
  });
  /** The audio bytes a listener gets for the file, through the media route (its signed link). */
  async function playedBytes(fileUuid: string, token: string): Promise<Buffer> {
    const listed = await app.inject({ url: `/api/files?uuid=${fileUuid}`, headers: authHeader(token) });
    const audioURL = listed.json().files[0]?.audioURL as string;
    expect(audioURL).toBeTruthy();
    // The link is checked against the viewer too (a locked file plays only for who may hear it).
    const audio = await app.inject({ url: audioURL, headers: authHeader(token) });
    expect(audio.statusCode).toBe(200);
    return audio.rawPayload;
  }

  /**
   * One call as the spec's client makes it: the `chunk` part first, then secure, chunkIndex,
   * totalChunks, uuid and fileName as fields (unless `fields` is false), and the same metadata as
   * headers (unless `headers` is false). No chunkSize, no fileSize.
   */
  async function specCall(
    token: string,
    meta: { uuid: string; fileName: string; secure: boolean; chunkIndex: number; totalChunks: number },
    chunk?: Buffer,
    { fields = true, headers = true } = {},
  ) {
    const form = new FormData();
    if (chunk) form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
    if (fields) {
      form.append('secure', String(meta.secure));
      form.append('chunkIndex', String(meta.chunkIndex));
      form.append('totalChunks', String(meta.totalChunks));
      form.append('uuid', meta.uuid);
      form.append('fileName', meta.fileName);
    }
    const encoded = new Response(form);
    return app.inject({
      method: 'POST',
      url: '/api/files/upload',
      headers: {
        ...authHeader(token),
        'content-type': encoded.headers.get('content-type') as string,
        ...(headers
          ? {
              [UPLOAD_HEADERS.uuid]: meta.uuid,
              [UPLOAD_HEADERS.chunkIndex]: String(meta.chunkIndex),
              [UPLOAD_HEADERS.totalChunks]: String(meta.totalChunks),
              [UPLOAD_HEADERS.fileName]: encodeURIComponent(meta.fileName),
              [UPLOAD_HEADERS.secure]: String(meta.secure),
            }
          : {}),
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
  }

  describe('ids the client names are checked; ids that create storage are the server’s', () => {
    /** A file of `creator`, public or locked to a tier, with real audio in storage. */
    async function publishedFile(locked: boolean) {
      const tier = locked
        ? await createTier(db, { creatorName: 'Creator', title: 'Gold', rank: 1, creatorUserId: creator.id })
        : null;
      const file = await createFile(db, { authorId: creator.id, tierIds: tier ? [tier.id] : undefined });
      const bytes = fs.readFileSync(await sineFile('wav', 2));
      await storage.put(file.audioKey, bytes);
      return { file, bytes };
    }

    it.each([
      ['a public file', false],
      ['a tier-locked file', true],
    ])(
      "another uploader naming %s's uuid is refused, and its audio stays the creator's",
      async (_what, locked) => {
        const { file, bytes } = await publishedFile(locked);
        const theirs = fs.readFileSync(await sineFile('wav', 1));
        // With chunkSize, fields first (the web dialog's shape), then the spec's shape.
        const first = await post(
          other.token,
          fieldsOf(file.uuid, 0, 1, { chunkSize: theirs.length }),
          theirs,
        );
        expect(first.statusCode).toBe(400);
        expect(first.json()).toEqual({
          error: "uuid: is a published file's id: send a new uuid for each upload.",
          field: 'uuid',
        });
        const meta = { uuid: file.uuid, fileName: 'x.wav', secure: false, chunkIndex: 0, totalChunks: 1 };
        expect((await specCall(other.token, meta, theirs)).statusCode).toBe(400);
        // Nothing was started, so the completing call finds nothing.
        const done = await complete(other.token, file.uuid, 1);
        expect(done.statusCode).toBe(404);
        expect(done.json()).toEqual({ error: 'Upload not found.' });
        expect((await specCall(other.token, meta)).statusCode).toBe(404);
        expect(await rowOf(file.uuid)).toBeUndefined();
        // The creator's bytes, in storage and as a listener (the creator, for the locked one) plays them.
        expect((await readAll(storage.createReadStream(file.audioKey))).equals(bytes)).toBe(true);
        expect((await playedBytes(file.uuid, creator.token)).equals(bytes)).toBe(true);
        // Not even the file's own creator starts an upload under a file's uuid.
        expect(
          (await post(creator.token, fieldsOf(file.uuid, 0, 1, { chunkSize: 4 }), Buffer.from('abcd')))
            .statusCode,
        ).toBe(400);
      },
    );

    it('two uploaders using the same uuid each get their own upload; neither sees nor touches the other’s', async () => {
      const uuid = randomUUID();
      const mine = fs.readFileSync(await sineFile('flac'));
      const theirs = fs.readFileSync(await sineFile('mp3'));
      expect((await sendChunk(creator.token, uuid, [mine], 0)).statusCode).toBe(200);
      const asOther = authHeader(other.token);
      expect((await app.inject({ url: `/api/files/upload?uuid=${uuid}`, headers: asOther })).statusCode).toBe(
        404,
      );
      const cancel = await app.inject({
        method: 'DELETE',
        url: `/api/files/upload?uuid=${uuid}`,
        headers: asOther,
      });
      expect(cancel.statusCode).toBe(404);
      expect((await complete(other.token, uuid, 1)).statusCode).toBe(404);
      expect((await app.inject({ url: '/api/files/uploads', headers: asOther })).json().uploads).toEqual([]);

      expect((await sendChunk(other.token, uuid, [theirs], 0)).statusCode).toBe(200);
      expect((await complete(other.token, uuid, 1)).statusCode).toBe(200);
      expect((await complete(creator.token, uuid, 1)).statusCode).toBe(200);
      const rows = await db.select().from(uploads).where(eq(uploads.uuid, uuid));
      expect(rows.map((r) => r.userId).sort()).toEqual([creator.id, other.id].sort());
      expect(new Set(rows.map((r) => r.id)).size).toBe(2);
      const service = app.services.uploads;
      const as = (u: Signed) => ({ id: u.id, username: u.username, timezone: 'UTC', roles: [] });
      const minesReady = await service.readyUpload(as(creator), uuid);
      const theirsReady = await service.readyUpload(as(other), uuid);
      expect([minesReady.audioType, theirsReady.audioType]).toEqual(['flac', 'mp3']);
      expect((await readAll(storage.createReadStream(minesReady.audioKey))).equals(mine)).toBe(true);
      expect((await readAll(storage.createReadStream(theirsReady.audioKey))).equals(theirs)).toBe(true);
      for (const token of [creator.token, other.token]) {
        const res = await app.inject({
          method: 'DELETE',
          url: `/api/files/upload?uuid=${uuid}`,
          headers: authHeader(token),
        });
        expect(res.statusCode).toBe(204);
      }
      expect(await storage.stat(minesReady.audioKey)).toBeNull();
      expect(await storage.stat(theirsReady.audioKey)).toBeNull();
    });
  });

  describe('what unfinished uploads may hold', () => {
    it('caps the bytes an account’s unfinished uploads hold: a chunk past the cap is 413 and stores nothing', async () => {
      const hoarder = await createSignedInUser(app, { roles: ['Verified Creator'] });
      const chunk = Buffer.alloc(6 * MiB, 1);
      const held = [randomUUID(), randomUUID()];
      for (const uuid of held) {
        const res = await post(hoarder.token, fieldsOf(uuid, 0, 5, { chunkSize: chunk.length }), chunk);
        expect(res.statusCode, res.body).toBe(200);
        // As if each held 347 MB (saves writing 694 MB).
        await db
          .update(uploadChunks)
          .set({ size: 347_000_000 })
          .where(eq(uploadChunks.uploadId, await idOf(uuid)));
      }
      expect(2 * 347_000_000 + chunk.length).toBeGreaterThan(MAX_UNFINISHED_UPLOAD_BYTES);
      const before = await storedKeys();
      const third = randomUUID();
      const refused = await post(hoarder.token, fieldsOf(third, 0, 5, { chunkSize: chunk.length }), chunk);
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ error: UNFINISHED_UPLOADS_FULL_MESSAGE });
      // Counted the same when the size is not announced (the spec's payload).
      const meta = { uuid: third, fileName: 'x.wav', secure: false, chunkIndex: 0, totalChunks: 5 };
      expect((await specCall(hoarder.token, meta, chunk)).json()).toEqual({
        error: UNFINISHED_UPLOADS_FULL_MESSAGE,
      });
      expect(await rowOf(third)).toBeUndefined();
      expect(await storedKeys()).toEqual(before);
      // A chunk sent again replaces the one it counted; cancelling one makes room.
      expect(
        (await post(hoarder.token, fieldsOf(held[0], 0, 5, { chunkSize: chunk.length }), chunk)).statusCode,
      ).toBe(200);
      expect(
        (await post(hoarder.token, fieldsOf(third, 0, 5, { chunkSize: chunk.length }), chunk)).statusCode,
      ).toBe(200);
      for (const uuid of [...held, third]) {
        const res = await app.inject({
          method: 'DELETE',
          url: `/api/files/upload?uuid=${uuid}`,
          headers: authHeader(hoarder.token),
        });
        expect(res.statusCode).toBe(204);
      }
    });

    it('counts processed uploads not yet made into files', async () => {
      const hoarder = await createSignedInUser(app, { roles: ['Verified Creator'] });
      const { uuid, res } = await uploadWhole(hoarder.token, fs.readFileSync(await sineFile('flac')));
      expect(res.statusCode).toBe(200);
      // As if the processed audio were 696 MB.
      await db.update(uploads).set({ size: 696_000_000 }).where(eq(uploads.uuid, uuid));
      const refused = await post(
        hoarder.token,
        fieldsOf(randomUUID(), 0, 5, { chunkSize: 6 * MiB }),
        Buffer.alloc(6 * MiB),
      );
      expect(refused.statusCode).toBe(413);
      expect(refused.json()).toEqual({ error: UNFINISHED_UPLOADS_FULL_MESSAGE });
      await app.inject({
        method: 'DELETE',
        url: `/api/files/upload?uuid=${uuid}`,
        headers: authHeader(hoarder.token),
      });
    });

    it('removes an upload a day after its start however recently a chunk came, with its bytes', async () => {
      const chunks = split(fs.readFileSync(await sineFile('wav', 150)), 5 * MiB);
      const uuid = randomUUID();
      expect((await sendChunk(other.token, uuid, chunks, 0)).statusCode).toBe(200);
      const { id, storageKey, storageUploadId } = await rowOf(uuid);
      clock.advance(ABANDONED_UPLOAD_MS - 3600_000);
      // Sending chunks keeps it busy, not alive.
      expect((await sendChunk(other.token, uuid, chunks, 0)).statusCode).toBe(200);
      expect((await sendChunk(other.token, uuid, chunks, 1)).statusCode).toBe(200);
      clock.advance(2 * 3600_000);
      await app.services.cleanup.run();
      expect(await rowOf(uuid)).toBeUndefined();
      expect(await keysOf(id)).toEqual([]);
      expect(await keysOf(storageUploadId)).toEqual([]);
      // The store's multipart upload is gone with its parts (S3 lists no parts: it refuses a new one).
      await expect(
        storage.putPart(storageKey, storageUploadId, 3, Readable.from([Buffer.from('x')]), 1),
      ).rejects.toThrow();
    });
  });

  describe("the spec's payload: the chunk first, metadata as fields or headers, no sizes", () => {
    it('uploads a file in three chunks that is then made a file (releaseDate null) and plays', async () => {
      const bytes = fs.readFileSync(await sineFile('wav', 150));
      const chunks = split(bytes, 5 * MiB);
      const uuid = randomUUID();
      const meta = { uuid, fileName: 'Ströme 1.wav', secure: false, totalChunks: chunks.length };
      for (const [chunkIndex, chunk] of chunks.entries()) {
        const res = await specCall(creator.token, { ...meta, chunkIndex }, chunk);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({ data: { uuid } });
      }
      const done = await specCall(creator.token, { ...meta, chunkIndex: chunks.length - 1 });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toEqual({ data: { uuid } });
      expect(await rowOf(uuid)).toMatchObject({
        fileName: 'Ströme 1.wav',
        state: 'ready',
        size: bytes.length,
      });

      const created = await app.inject({
        method: 'POST',
        url: '/api/files',
        headers: authHeader(creator.token),
        payload: {
          name: 'Spec client',
          description: 'Sent as the spec sends it.',
          uuid,
          triggers: [],
          patreonTier: null,
          fileType: 2,
          trackNumber: null,
          releaseDate: null,
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      const [file] = await db.select().from(files).where(eq(files.id, created.json().id));
      expect(file.releaseDate).toEqual(clock.now());
      // The file has the server's id, not the handle.
      expect(file.uuid).not.toBe(uuid);
      expect((await playedBytes(file.uuid, creator.token)).equals(bytes)).toBe(true);
    });

    it('takes the metadata from the fields alone or the headers alone', async () => {
      const bytes = fs.readFileSync(await sineFile('mp3'));
      for (const only of [{ headers: false }, { fields: false }]) {
        const uuid = randomUUID();
        const meta = { uuid, fileName: 'Take.mp3', secure: true, chunkIndex: 0, totalChunks: 1 };
        const sent = await specCall(other.token, meta, bytes, only);
        expect(sent.statusCode, sent.body).toBe(200);
        const done = await specCall(other.token, meta, undefined, only);
        expect(done.statusCode, done.body).toBe(200);
        expect(await rowOf(uuid)).toMatchObject({ secure: true, state: 'ready', size: bytes.length });
        await app.inject({
          method: 'DELETE',
          url: `/api/files/upload?uuid=${uuid}`,
          headers: authHeader(other.token),
        });
      }
    });

    it('400 names the field when a header disagrees with it, a field comes twice, or a small chunk is not the last', async () => {
      const uuid = randomUUID();
      const form = new FormData();
      form.append('chunk', new Blob([new Uint8Array(4)]), 'blob');
      for (const [name, value] of Object.entries(fieldsOf(uuid, 0, 1))) form.append(name, String(value));
      const encoded = new Response(form);
      const payload = Buffer.from(await encoded.arrayBuffer());
      const headers = {
        ...authHeader(other.token),
        'content-type': encoded.headers.get('content-type') as string,
      };
      const disagree = await app.inject({
        method: 'POST',
        url: '/api/files/upload',
        headers: { ...headers, [UPLOAD_HEADERS.chunkIndex]: '2' },
        payload,
      });
      expect(disagree.statusCode).toBe(400);
      expect(disagree.json()).toEqual({
        error: 'chunkIndex: the field and the x-chunk-index header differ.',
        field: 'chunkIndex',
      });
      form.append('uuid', uuid);
      const twiceEncoded = new Response(form);
      const twice = await app.inject({
        method: 'POST',
        url: '/api/files/upload',
        headers: { ...headers, 'content-type': twiceEncoded.headers.get('content-type') as string },
        payload: Buffer.from(await twiceEncoded.arrayBuffer()),
      });
      expect(twice.json()).toEqual({ error: 'uuid: is sent twice.', field: 'uuid' });
      const small = await specCall(
        other.token,
        { uuid, fileName: 'x', secure: false, chunkIndex: 0, totalChunks: 2 },
        Buffer.alloc(10),
      );
      expect(small.json()).toEqual({
        error: 'chunk: every chunk but the last must be at least 5242880 bytes.',
        field: 'chunk',
      });
      expect(await rowOf(uuid)).toBeUndefined();
    });
  });
});
