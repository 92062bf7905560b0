import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, keptGenerations } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { removeAudioFixtures, sineFile } from '../../test/audio-fixtures.ts';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';
import { startS3Server } from '../../test/s3-server.ts';
import { analyseStoredAudio } from './analyse-library.ts';
import { decodePeaksHeader, PEAKS_HEADER_BYTES, peaksKeyOf } from './peaks-file.ts';

const s3 = await startS3Server();
const { app, config } = await createTestApp();
const s3App = await createTestApp(s3.config);
const db = app.ctx.db;
const storage = createStorage(config);
afterAll(async () => {
  removeAudioFixtures();
  await s3.stop();
});

let wav: Awaited<ReturnType<typeof createFile>>;
let flac: Awaited<ReturnType<typeof createFile>>;
let missing: Awaited<ReturnType<typeof createFile>>;
let done: Awaited<ReturnType<typeof createFile>>;
const wavBytes = fs.readFileSync(await sineFile('wav'));
const flacBytes = fs.readFileSync(await sineFile('flac'));
/** Audio that was analysed before sizes were kept: only its size is missing. */
const doneBytes = Buffer.alloc(1234, 1);

beforeAll(async () => {
  const author = await createUser(db);
  wav = await createFile(db, { authorId: author.id, duration: 3000 });
  await storage.put(wav.audioKey, wavBytes);
  flac = await createFile(db, { authorId: author.id, duration: 0 });
  const flacKey = `audio/${flac.uuid}.flac`;
  await db.update(files).set({ audioKey: flacKey }).where(eq(files.id, flac.id));
  await storage.put(flacKey, flacBytes);
  missing = await createFile(db, { authorId: author.id });
  done = await createFile(db, { authorId: author.id });
  await db
    .update(files)
    .set({ waveform: [0.5], loudness: -10, peaksKey: 'peaks/done.bin' })
    .where(eq(files.id, done.id));
  await storage.put(done.audioKey, doneBytes);
});

describe('analyseStoredAudio', () => {
  it('fills in waveform, loudness, peaks and size from storage, only measures analysed files, reports missing audio', async () => {
    const lines: string[] = [];
    const result = await analyseStoredAudio(app.ctx, { log: (line) => lines.push(line) });
    expect(result).toEqual({
      analysed: 2,
      measured: 1,
      failed: [{ id: missing.id, audioKey: missing.audioKey, error: 'the audio is not in storage' }],
    });
    const rows = await db.select().from(files);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [wav.id, flac.id]) {
      const row = byId.get(id);
      expect(row?.waveform).toHaveLength(1000);
      expect(row?.loudness).toBeCloseTo(-23, 0);
    }
    // The 3 s wav: 600 peaks of 5 ms, then levels of 20 ms (150); 150 is few enough to stop.
    expect(byId.get(wav.id)?.peaksKey).toBe(peaksKeyOf(wav.uuid));
    const header = decodePeaksHeader(
      await storage.readRange(peaksKeyOf(wav.uuid), { start: 0, end: PEAKS_HEADER_BYTES - 1 }),
    );
    expect(header).toMatchObject({ baseMs: 5, factor: 4, lengths: [600] });
    expect(byId.get(flac.id)?.peaksKey).toBe(peaksKeyOf(flac.uuid));
    expect(byId.get(missing.id)?.waveform).toBeNull();
    expect(byId.get(missing.id)?.peaksKey).toBeNull();
    // Measured, not decoded: what it had stays.
    expect(byId.get(done.id)).toMatchObject({
      waveform: [0.5],
      loudness: -10,
      peaksKey: 'peaks/done.bin',
      audioSize: doneBytes.length,
    });
    expect(byId.get(wav.id)?.audioSize).toBe(wavBytes.length);
    expect(byId.get(flac.id)?.audioSize).toBe(flacBytes.length);
    expect(byId.get(missing.id)?.audioSize).toBeNull();
    expect(lines).toContain(`file ${done.id}: ${doneBytes.length} bytes`);
    expect(lines.at(-1)).toBe('analysed 2 files, measured 1, 1 failed');
    // Nothing left to do the second time but the missing one.
    expect((await analyseStoredAudio(app.ctx, { log: () => undefined })).analysed).toBe(0);
  });
});

describe('analyseStoredAudio with media in S3', () => {
  it('measures the stored audio of files without a size (sizes only: nothing decoded)', async () => {
    const s3Db = s3App.app.ctx.db;
    const s3Storage = createStorage(s3App.config);
    const author = await createUser(s3Db);
    const file = await createFile(s3Db, { authorId: author.id, duration: 3000 });
    await s3Storage.put(file.audioKey, wavBytes);
    const gone = await createFile(s3Db, { authorId: author.id });

    const filesGeneration = async () =>
      (await s3Db.select().from(keptGenerations).where(eq(keptGenerations.name, 'files')))[0].generation;
    const before = await filesGeneration();
    const result = await analyseStoredAudio(s3App.app.ctx, { log: () => undefined, sizesOnly: true });
    expect(result).toEqual({
      analysed: 0,
      measured: 1,
      failed: [{ id: gone.id, audioKey: gone.audioKey, error: 'the audio is not in storage' }],
    });
    const [row] = await s3Db.select().from(files).where(eq(files.id, file.id));
    expect(row).toMatchObject({ audioSize: wavBytes.length, waveform: null, peaksKey: null });
    // Kept file lists do not show the size: measuring empties no cache.
    expect(await filesGeneration()).toBe(before);
  });
});
