import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { removeAudioFixtures, sineFile } from '../../test/audio-fixtures.ts';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';
import { analyseStoredAudio } from './analyse-library.ts';

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);
afterAll(() => removeAudioFixtures());

let wav: Awaited<ReturnType<typeof createFile>>;
let flac: Awaited<ReturnType<typeof createFile>>;
let missing: Awaited<ReturnType<typeof createFile>>;
let done: Awaited<ReturnType<typeof createFile>>;

beforeAll(async () => {
  const author = await createUser(db);
  wav = await createFile(db, { authorId: author.id, duration: 3000 });
  await storage.put(wav.audioKey, fs.readFileSync(await sineFile('wav')));
  flac = await createFile(db, { authorId: author.id, duration: 0 });
  const flacKey = `audio/${flac.uuid}.flac`;
  await db.update(files).set({ audioKey: flacKey }).where(eq(files.id, flac.id));
  await storage.put(flacKey, fs.readFileSync(await sineFile('flac')));
  missing = await createFile(db, { authorId: author.id });
  done = await createFile(db, { authorId: author.id });
  await db
    .update(files)
    .set({ waveform: [0.5], loudness: -10 })
    .where(eq(files.id, done.id));
});

describe('analyseStoredAudio', () => {
  it('fills in waveform and loudness from storage, skips analysed files, reports missing audio', async () => {
    const lines: string[] = [];
    const result = await analyseStoredAudio(app.ctx, { log: (line) => lines.push(line) });
    expect(result).toEqual({
      analysed: 2,
      failed: [{ id: missing.id, audioKey: missing.audioKey, error: 'the audio is not in storage' }],
    });
    const rows = await db.select().from(files);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [wav.id, flac.id]) {
      const row = byId.get(id);
      expect(row?.waveform).toHaveLength(1000);
      expect(row?.loudness).toBeCloseTo(-23, 0);
    }
    expect(byId.get(missing.id)?.waveform).toBeNull();
    expect(byId.get(done.id)).toMatchObject({ waveform: [0.5], loudness: -10 });
    expect(lines.at(-1)).toBe('analysed 2 files, 1 failed');
    // Nothing left to do the second time but the missing one.
    expect((await analyseStoredAudio(app.ctx, { log: () => undefined })).analysed).toBe(0);
  });
});
