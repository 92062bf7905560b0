import fs from 'node:fs';
import { peakLevel } from '@mesmer/shared/domain/waveform-peaks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/index.ts';
import { createStorage } from '../../platform/storage.ts';
import { removeAudioFixtures, sineFile } from '../../test/audio-fixtures.ts';
import { authHeader, createSignedInUser, type TestUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { createFile } from '../../test/library-factories.ts';
import { peaksKeyOf, storePeaks } from '../uploads/peaks-file.ts';

/** GET /api/files/peaks: windows of the cue editor's waveform at several resolutions. */

const { app, config } = await createTestApp();
const db = app.ctx.db;
const storage = createStorage(config);
afterAll(() => removeAudioFixtures());

type Signed = TestUser & { token: string };
let creator: Signed;
let stranger: Signed;
let moderator: Signed;

/** A minute of made-up peaks: the finest (5 ms) peak i is i mod 256. */
const FINE = Uint8Array.from({ length: 12_000 }, (_, i) => i % 256);
/** Level l's peak j: the largest of the finest peaks it covers. */
const expectedPeak = (ms: number, j: number) => {
  const per = ms / 5;
  let max = 0;
  for (let i = j * per; i < Math.min((j + 1) * per, FINE.length); i++) max = Math.max(max, FINE[i]);
  return peakLevel(max);
};
let minute: Awaited<ReturnType<typeof createFile>>;

beforeAll(async () => {
  creator = await createSignedInUser(app, { username: 'peaks_creator', roles: ['Verified Creator'] });
  stranger = await createSignedInUser(app, { username: 'peaks_stranger', roles: ['Verified Creator'] });
  moderator = await createSignedInUser(app, { username: 'peaks_moderator', roles: ['Moderator'] });
  minute = await createFile(db, { authorId: creator.id, duration: 60_000 });
  await storePeaks(storage, peaksKeyOf(minute.uuid), FINE);
  await db
    .update(files)
    .set({ peaksKey: peaksKeyOf(minute.uuid) })
    .where(eq(files.id, minute.id));
});

const peaks = (
  query: Record<string, string | number>,
  token?: string,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'GET',
    url: `/api/files/peaks?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    headers: { ...(token ? authHeader(token) : {}), ...headers },
  });

describe('GET /api/files/peaks', () => {
  it('answers the window from the coarsest level at most as coarse as asked', async () => {
    // 12,000 peaks of 5 ms, 3,000 of 20 ms, 750 of 80 ms (few enough: the coarsest).
    const cases: [
      query: { fromMs: number; toMs: number; msPerPeak: number },
      ms: number,
      fromMs: number,
      count: number,
    ][] = [
      [{ fromMs: 0, toMs: 1000, msPerPeak: 5 }, 5, 0, 200],
      [{ fromMs: 0, toMs: 1000, msPerPeak: 1 }, 5, 0, 200],
      [{ fromMs: 1000, toMs: 2000, msPerPeak: 19 }, 5, 1000, 200],
      [{ fromMs: 1000, toMs: 2000, msPerPeak: 20 }, 20, 1000, 50],
      [{ fromMs: 0, toMs: 60_000, msPerPeak: 79 }, 20, 0, 3000],
      [{ fromMs: 0, toMs: 60_000, msPerPeak: 80 }, 80, 0, 750],
      [{ fromMs: 0, toMs: 60_000, msPerPeak: 10_000 }, 80, 0, 750],
      // Unaligned: from the peak holding fromMs to the one holding toMs − 1.
      [{ fromMs: 1003, toMs: 1017, msPerPeak: 5 }, 5, 1000, 4],
      [{ fromMs: 30_010, toMs: 30_170, msPerPeak: 20 }, 20, 30_000, 9],
      // Near and past the end: what there is.
      [{ fromMs: 59_990, toMs: 70_000, msPerPeak: 5 }, 5, 59_990, 2],
      [{ fromMs: 70_000, toMs: 80_000, msPerPeak: 5 }, 5, 60_000, 0],
    ];
    for (const [query, ms, fromMs, count] of cases) {
      const res = await peaks({ fileId: minute.id, ...query }, creator.token);
      const label = JSON.stringify(query);
      expect(res.statusCode, label).toBe(200);
      const body = res.json();
      expect({ ...body, peaks: body.peaks.length }, label).toEqual({
        msPerPeak: ms,
        fromMs,
        durationMs: 60_000,
        peaks: count,
        levels: [5, 20, 80],
      });
      const first = fromMs / ms;
      expect(body.peaks, label).toEqual(Array.from({ length: count }, (_, i) => expectedPeak(ms, first + i)));
    }
  });

  it('never answers more than 4,000 peaks: a wider window gets a coarser level', async () => {
    // 5 ms over 60 s would be 12,000; 20 ms gives 3,000.
    const wide = (
      await peaks({ fileId: minute.id, fromMs: 0, toMs: 60_000, msPerPeak: 5 }, creator.token)
    ).json();
    expect(wide.msPerPeak).toBe(20);
    expect(wide.peaks).toHaveLength(3000);
    // 20 s at 5 ms would be 4,000: still the finest.
    const edge = (
      await peaks({ fileId: minute.id, fromMs: 0, toMs: 20_000, msPerPeak: 5 }, creator.token)
    ).json();
    expect(edge.msPerPeak).toBe(5);
    expect(edge.peaks).toHaveLength(4000);
    const over = (
      await peaks({ fileId: minute.id, fromMs: 0, toMs: 20_005, msPerPeak: 5 }, creator.token)
    ).json();
    expect(over.msPerPeak).toBe(20);
    expect(over.peaks).toHaveLength(1001);
  });

  it('is cacheable: an ETag per window, 304 when it matches', async () => {
    const query = { fileId: minute.id, fromMs: 0, toMs: 1000, msPerPeak: 5 };
    const first = await peaks(query, creator.token);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"peaks-/);
    expect(first.headers['cache-control']).toBe('private, max-age=3600');
    const again = await peaks(query, creator.token, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    // No peaks again (Node's HTTP server sends no body at all with a 304).
    expect(again.body).not.toContain('peaks');
    const other = await peaks({ ...query, fromMs: 5 }, creator.token);
    expect(other.headers.etag).not.toBe(etag);
    // Only to those who may read them: the check comes before the tag.
    expect((await peaks(query, stranger.token, { 'if-none-match': etag })).statusCode).toBe(403);
  });

  it('makes the peaks of a file analysed before they were kept at its first request, once', async () => {
    const bytes = fs.readFileSync(await sineFile('wav', 3));
    const older = await createFile(db, { authorId: creator.id, duration: 3000 });
    await storage.put(older.audioKey, bytes);
    await db
      .update(files)
      .set({ waveform: [0.1, 0.1], loudness: -23 })
      .where(eq(files.id, older.id));
    expect((await db.select().from(files).where(eq(files.id, older.id)))[0].peaksKey).toBeNull();

    const query = { fileId: older.id, fromMs: 0, toMs: 3000, msPerPeak: 5 };
    const answers = await Promise.all([peaks(query, creator.token), peaks(query, moderator.token)]);
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ msPerPeak: 5, fromMs: 0, durationMs: 3000, levels: [5] });
      expect(res.json().peaks).toHaveLength(600);
      // A 1 kHz sine at 0.1 of full scale.
      for (const peak of res.json().peaks) expect(peak).toBeCloseTo(0.1, 2);
    }
    expect(answers[1].json()).toEqual(answers[0].json());
    const [row] = await db.select().from(files).where(eq(files.id, older.id));
    expect(row.peaksKey).toBe(peaksKeyOf(older.uuid));
    expect(await storage.stat(peaksKeyOf(older.uuid))).not.toBeNull();
    // The kept peaks answer from now on, whatever happens to the audio.
    await storage.delete(older.audioKey);
    expect((await peaks(query, creator.token)).json()).toEqual(answers[0].json());
  });

  it('makes them again when the kept peaks are missing', async () => {
    const bytes = fs.readFileSync(await sineFile('wav', 3));
    const lost = await createFile(db, { authorId: creator.id, duration: 3000 });
    await storage.put(lost.audioKey, bytes);
    await db.update(files).set({ peaksKey: 'peaks/gone.bin' }).where(eq(files.id, lost.id));
    const res = await peaks({ fileId: lost.id, fromMs: 1000, toMs: 2000, msPerPeak: 5 }, creator.token);
    expect(res.json()).toMatchObject({ msPerPeak: 5, fromMs: 1000 });
    expect(res.json().peaks).toHaveLength(200);
    expect((await db.select().from(files).where(eq(files.id, lost.id)))[0].peaksKey).toBe(
      peaksKeyOf(lost.uuid),
    );
  });

  it('answers no peaks, not kept, when the audio cannot be read', async () => {
    const silent = await createFile(db, { authorId: creator.id, duration: 5000 });
    const res = await peaks({ fileId: silent.id, fromMs: 0, toMs: 5000, msPerPeak: 5 }, creator.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ msPerPeak: 5, fromMs: 0, durationMs: 5000, peaks: [], levels: [] });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect((await db.select().from(files).where(eq(files.id, silent.id)))[0].peaksKey).toBeNull();
  });

  it('answers 400 naming the field', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ fromMs: 0, toMs: 1000, msPerPeak: 5 }, 'fileId'],
      [{ fileId: minute.id, fromMs: -1, toMs: 1000, msPerPeak: 5 }, 'fromMs'],
      [{ fileId: minute.id, fromMs: 1000, toMs: 1000, msPerPeak: 5 }, 'toMs'],
      [{ fileId: minute.id, fromMs: 2000, toMs: 1000, msPerPeak: 5 }, 'toMs'],
      [{ fileId: minute.id, fromMs: 0, toMs: 'end', msPerPeak: 5 }, 'toMs'],
      [{ fileId: minute.id, fromMs: 0, toMs: 1000, msPerPeak: 0 }, 'msPerPeak'],
      [{ fileId: minute.id, fromMs: 0, toMs: 1000, msPerPeak: 2.5 }, 'msPerPeak'],
      [{ fileId: minute.id, fromMs: 0, toMs: 1000 }, 'msPerPeak'],
      [{ fileId: minute.id, fromMs: 0, toMs: 3_000_000_000, msPerPeak: 5 }, 'toMs'],
    ];
    for (const [query, field] of cases) {
      const res = await peaks(query, creator.token);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toMatchObject({
        field,
        error: expect.stringMatching(new RegExp(`^${field}: `)),
      });
    }
  });

  it('answers 401 anonymous, 403 to those who may not edit the file, 404 for a file they cannot see', async () => {
    const hidden = await createFile(db, { authorId: creator.id, isPublic: false });
    const query = (fileId: number) => ({ fileId, fromMs: 0, toMs: 1000, msPerPeak: 5 });
    expect((await peaks(query(minute.id))).statusCode).toBe(401);
    expect((await peaks(query(minute.id), stranger.token)).statusCode).toBe(403);
    expect((await peaks(query(hidden.id), stranger.token)).statusCode).toBe(404);
    expect((await peaks(query(999_999), creator.token)).statusCode).toBe(404);
    expect((await peaks(query(minute.id), moderator.token)).statusCode).toBe(200);
  });
});
