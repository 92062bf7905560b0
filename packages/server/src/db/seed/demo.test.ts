import { FILE_TYPES } from '@mesmer/shared/domain/file-types';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createStorage } from '../../platform/storage.ts';
import { loginAs } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { files, playlists, series, seriesPlaylists, users } from '../schema/index.ts';
import { DEMO_SAMPLE_RATE } from './demo-audio.ts';
import { DEMO_PASSWORD } from './demo-catalogue.ts';
import { seedOnStart } from './index.ts';

const { app } = await createTestApp({ seedDemo: true });
const db = app.ctx.db;
const count = async (table: typeof files | typeof playlists | typeof series | typeof users) =>
  (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

describe('demo library seed', () => {
  // How long the seed takes is bench material (handbook): a timed assertion here failed on a busy machine.
  it('seeds a playable library on first start', async () => {
    await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);

    const owner = (await db.select().from(users).where(sql`${users.id} = 1`))[0];
    expect(owner.username).toBe('mesmer');
    const rows = await db.select().from(files);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((f) => f.fileType))).toEqual(new Set(FILE_TYPES.map((t) => t.id)));
    expect(rows.filter((f) => f.hapticsKey).length).toBeGreaterThanOrEqual(rows.length / 3);
    expect(rows.some((f) => f.scriptKey)).toBe(true);
    expect(rows.some((f) => f.warnings.length > 0)).toBe(true);
    expect(rows.some((f) => !f.isPublic)).toBe(true);

    const storage = createStorage(app.ctx.config);
    let total = 0;
    for (const file of rows) {
      const stored = await storage.stat(file.audioKey);
      expect(stored, file.name).not.toBeNull();
      total += stored?.size ?? 0;
      const chunks: Buffer[] = [];
      for await (const chunk of storage.createReadStream(file.audioKey, { start: 0, end: 43 }))
        chunks.push(chunk);
      const header = Buffer.concat(chunks);
      expect(header.toString('ascii', 0, 4)).toBe('RIFF');
      expect(header.readUInt32LE(24)).toBe(DEMO_SAMPLE_RATE);
      const bytesPerSecond = header.readUInt32LE(28);
      expect(Math.round((header.readUInt32LE(40) / bytesPerSecond) * 1000), file.name).toBe(file.duration);
      expect(file.duration).toBeGreaterThanOrEqual(10_000);
      expect(file.duration).toBeLessThanOrEqual(180_000);
    }
    expect(total).toBeLessThan(60 * 1024 * 1024);

    const plans = await db.select().from(series);
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      const days = await db
        .select()
        .from(seriesPlaylists)
        .where(sql`${seriesPlaylists.seriesId} = ${plan.id}`);
      expect(days.length).toBeGreaterThanOrEqual(3);
      expect(days.length).toBeLessThanOrEqual(5);
    }
    const lists = await db.select().from(playlists);
    expect(lists.some((p) => p.isCore && p.isPublic && p.creatorId === 1)).toBe(true);
    expect(lists.some((p) => !p.isPublic && p.creatorId !== 1)).toBe(true);
  });

  it('lets the community demo accounts sign in, but not the owner with a guessed password', async () => {
    for (const username of ['lunadrift', 'velvetvoice', 'sonicmist']) {
      expect(await loginAs(app, username, DEMO_PASSWORD)).toMatch(/.+/);
    }
    await expect(loginAs(app, 'mesmer', DEMO_PASSWORD)).rejects.toThrow();
  });

  it('serves the seeded files through the API, with locked ones for anonymous listeners', async () => {
    const body = (await app.inject({ method: 'GET', url: '/api/files?pageSize=100' })).json();
    expect(body.totalItems).toBe((await count(files)) - 1);
    expect(body.files.some((f: { isLocked: boolean }) => f.isLocked)).toBe(true);
    const playable = body.files.find((f: { audioURL: string | null }) => f.audioURL);
    const audio = await app.inject({
      method: 'GET',
      url: playable.audioURL,
      headers: { range: 'bytes=0-3' },
    });
    expect(audio.statusCode).toBe(206);
    expect(audio.body).toBe('RIFF');
  });

  it('does nothing on the next start', async () => {
    const before = [await count(files), await count(playlists), await count(series), await count(users)];
    await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);
    expect([await count(files), await count(playlists), await count(series), await count(users)]).toEqual(
      before,
    );
  });
});

describe('demo library seed switched off', async () => {
  const off = await createTestApp();
  it('seeds nothing when SEED_DEMO is false', async () => {
    await seedOnStart(off.app.ctx, off.app.log, off.app.services.auth.seedAccounts);
    expect(await off.app.ctx.db.select().from(files)).toEqual([]);
    expect(await off.app.ctx.db.select().from(users)).toEqual([]);
  });
});
