import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, uploads } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { removeAudioFixtures, sineFile } from '../../test/audio-fixtures.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createPlaylist } from '../../test/library-factories.ts';
import { startS3Server } from '../../test/s3-server.ts';
import { uploadAndPublish } from '../../test/uploads.ts';

/**
 * The whole journey through the API, with media in the local folder and in S3: upload real audio,
 * make it a file, attach a Funscript, play it, delete it.
 */

const s3 = await startS3Server();
afterAll(async () => {
  removeAudioFixtures();
  await s3.stop();
});
const backends = [
  { name: 'local folder', ...(await createTestApp()) },
  { name: 'S3', ...(await createTestApp(s3.config)) },
];

describe.each(backends)('publishing a file, media in the $name', ({ name, app, config }) => {
  const db = app.ctx.db;
  const storage = createStorage(config);
  let owner: TestUser & { token: string };
  let creator: TestUser & { token: string };

  beforeAll(async () => {
    owner = await createSignedInUser(app, { roles: ['Administrator'] });
    creator = await createSignedInUser(app, { roles: ['Verified Creator'] });
  });

  it('uploads audio, makes it a file with its waveform, attaches a Funscript, plays it and deletes it', async () => {
    const bytes = fs.readFileSync(await sineFile('wav', 2));
    const { id, handle: uuid } = await uploadAndPublish(app, creator.token, bytes, 'Sine');
    const [row] = await db.select().from(files).where(eq(files.id, id));
    // The file takes the server's id for the upload, never the client's handle.
    expect(row.uuid).not.toBe(uuid);
    expect(row).toMatchObject({
      audioKey: `audio/${row.uuid}.wav`,
      audioType: 'audio/wav',
      audioSize: bytes.length,
      uploaderId: creator.id,
    });
    expect(row.duration).toBeGreaterThan(1900);
    expect(row.duration).toBeLessThan(2100);
    expect(row.waveform?.length).toBeGreaterThan(100);
    expect(row.loudness).toBeCloseTo(-23, 0);
    expect(await db.select().from(uploads).where(eq(uploads.uuid, uuid))).toEqual([]);
    expect((await storage.stat(row.audioKey))?.size).toBe(bytes.length);
    // Where the bytes are: on disk only with the local folder.
    expect(fs.existsSync(path.join(config.dataDir, 'media', row.audioKey))).toBe(name === 'local folder');

    const wave = await app.inject({ method: 'GET', url: `/api/files/waveform?id=${id}` });
    expect(wave.json().peaks).toEqual(row.waveform);
    // The cue editor's peaks were made with the upload's analysis: 5 ms each, a 0.1 sine.
    expect(row.peaksKey).toBe(`peaks/${row.uuid}.bin`);
    const peaks = await app.inject({
      method: 'GET',
      url: `/api/files/peaks?fileId=${id}&fromMs=500&toMs=1500&msPerPeak=5`,
      headers: authHeader(creator.token),
    });
    expect(peaks.statusCode, peaks.body).toBe(200);
    expect(peaks.json()).toMatchObject({ msPerPeak: 5, fromMs: 500, levels: [5] });
    expect(peaks.json().peaks).toHaveLength(200);
    for (const peak of peaks.json().peaks) expect(peak).toBeCloseTo(0.1, 2);

    const funscript = JSON.stringify({
      actions: [
        { at: 0, pos: 0 },
        { at: 500, pos: 100 },
      ],
    });
    const form = new FormData();
    form.append('fileId', String(id));
    form.append('kind', 'funscript');
    form.append('file', new Blob([funscript]), 'sine.funscript');
    const encoded = new Response(form);
    const attached = await app.inject({
      method: 'POST',
      url: '/api/files/attachment',
      headers: {
        ...authHeader(creator.token),
        'content-type': encoded.headers.get('content-type') as string,
      },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(attached.statusCode, attached.body).toBe(200);
    const file = attached.json().file;
    expect(file).toMatchObject({ hasHaptics: true, audioType: 'audio/wav', duration: row.duration });
    const { hapticsKey } = (await db.select().from(files).where(eq(files.id, id)))[0];

    const audio = await app.inject({ method: 'GET', url: file.audioURL, headers: { range: 'bytes=0-3' } });
    expect(audio.statusCode).toBe(206);
    expect(audio.body).toBe('RIFF');
    const haptics = await app.inject({ method: 'GET', url: file.hapticsURL });
    expect(haptics.json()).toEqual([{ time: 0, stopTime: 500, strength: 0.4 }]);

    const list = await createPlaylist(db, { creatorId: owner.id, fileIds: [id] });
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/files?id=${id}`,
      headers: authHeader(creator.token),
    });
    expect(removed.statusCode).toBe(204);
    expect(await storage.stat(row.audioKey)).toBeNull();
    expect(await storage.stat(hapticsKey ?? '')).toBeNull();
    expect(await storage.stat(`peaks/${row.uuid}.bin`)).toBeNull();
    const playlist = await app.inject({ method: 'GET', url: `/api/playlists?uuid=${list.uuid}` });
    expect(playlist.json().playlists[0].fileIds).toEqual([]);
  });
});
