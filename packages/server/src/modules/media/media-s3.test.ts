import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../platform/storage.ts';
import { createSignedInUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';
import { startS3Server } from '../../test/s3-server.ts';

// Registered before the app's own afterAll, so the bucket outlives the app (hooks run in reverse).
const s3 = await startS3Server();
afterAll(() => s3.stop());
const { app, config } = await createTestApp(s3.config);
const storage = createStorage(config);
const audio = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 13) % 256));

let file: Awaited<ReturnType<typeof createFile>>;
let audioUrl: string;

beforeAll(async () => {
  const owner = await createSignedInUser(app, { username: 'owner', roles: ['Administrator'] });
  file = await createFile(app.ctx.db, { name: 'In the bucket', authorId: owner.id });
  await storage.put(file.audioKey, audio);
  const res = await app.inject({ method: 'GET', url: `/api/files?uuid=${file.uuid}` });
  audioUrl = res.json().files[0].audioURL;
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('GET /media/:kind/:key with media in S3', () => {
  it('keeps the bytes in the bucket, not in DATA_DIR/media', () => {
    expect(config.s3?.endpoint).toBe(s3.endpoint);
    expect(fs.existsSync(path.join(config.dataDir, 'media'))).toBe(false);
  });

  it('streams the whole object with its length and validators', async () => {
    const res = await get(audioUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['content-length']).toBe('300000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.rawPayload.equals(audio)).toBe(true);
  });

  it('answers byte ranges from S3 with 206 and Content-Range', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=0-', 0, 299_999],
      ['bytes=-500', 299_500, 299_999],
      ['bytes=100000-199999', 100_000, 199_999],
      ['bytes=299990-999999', 299_990, 299_999],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(audioUrl, { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/300000`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(audio.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for a range past the end', async () => {
    const res = await get(audioUrl, { range: 'bytes=300000-' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */300000');
  });

  it('answers 304 when the ETag still matches', async () => {
    const first = await get(audioUrl);
    expect((await get(audioUrl, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
  });

  it('answers 404 once the object is deleted from the bucket', async () => {
    await storage.delete(file.audioKey);
    expect(await storage.stat(file.audioKey)).toBeNull();
    const res = await get(audioUrl);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });
});
