import { TRIGGER_CATEGORIES } from '@mesmer/shared/domain/triggers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.ts';
import { createTestApp } from '../../test/harness.ts';
import { triggers, users } from '../schema/index.ts';
import { seedOnStart } from './index.ts';

const { app } = await createTestApp({ seedDemo: false });
const db = app.ctx.db;

describe('trigger vocabulary (reference data)', () => {
  it('is seeded on a fresh database without the demo and without any account, once', async () => {
    expect(await db.select().from(users)).toHaveLength(0);
    await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);
    await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);

    const rows = await db.select().from(triggers);
    expect(rows.length).toBeGreaterThanOrEqual(75);
    expect(rows.length).toBeLessThanOrEqual(85);
    expect(new Set(rows.map((t) => t.category))).toEqual(new Set(TRIGGER_CATEGORIES));
    for (const t of rows) {
      expect(t.weight, t.name).toBeGreaterThanOrEqual(0.2);
      expect(t.weight, t.name).toBeLessThanOrEqual(1);
      expect(t.description.length, t.name).toBeGreaterThan(0);
      expect(t.description.length, t.name).toBeLessThanOrEqual(250);
      expect(t).toMatchObject({ creatorId: null, pending: false });
    }
    expect(new Set(rows.map((t) => t.weight)).size).toBeGreaterThan(3);
  });

  it('is listed as core triggers with category and weight, and belongs to user 1 once it exists', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/triggers?name=sleep_now' })).json().trigger;
    expect(before).toMatchObject({ isCore: true, creator: null, category: 'Relaxation', weight: 1 });

    const owner = await createUser(db, { username: 'siteowner' });
    expect(owner.id).toBe(1);
    const list = (await app.inject({ method: 'GET', url: '/api/triggers' })).json().triggers;
    const blank = list.find((t: { name: string }) => t.name === 'Blank');
    expect(blank).toMatchObject({
      isCore: true,
      creator: { id: 1, username: 'siteowner' },
      category: 'Focus',
      pending: false,
    });
    expect(list.every((t: { isCore: boolean; category: string }) => t.isCore && t.category)).toBe(true);
  });

  it("gives the site owner's older trigger of a vocabulary name its category and weight", async () => {
    await db
      .update(triggers)
      .set({ category: null, weight: 1, creatorId: 1 })
      .where(sql`${triggers.name} = 'Deep Breath'`);
    await db.update(triggers).set({ category: null }).where(sql`${triggers.name} = 'Melt'`);
    await seedOnStart(app.ctx, app.log, app.services.auth.seedAccounts);
    const [deep] = await db.select().from(triggers).where(sql`${triggers.name} = 'Deep Breath'`);
    expect(deep).toMatchObject({ category: 'Relaxation', weight: 0.8, creatorId: 1 });
    const [melt] = await db.select().from(triggers).where(sql`${triggers.name} = 'Melt'`);
    expect(melt.category).toBe('Relaxation');
  });

  it('the weighting table holds weights only from 0.2 to 1', async () => {
    const insert = (weight: number) =>
      db.insert(triggers).values({ name: `Weight ${weight}`, creatorId: null, weight });
    await expect(insert(0.1)).rejects.toThrow();
    await expect(insert(1.5)).rejects.toThrow();
    await insert(0.2);
    expect(
      (await db.select().from(triggers).where(sql`${triggers.name} = 'Weight 0.2'`))[0].weight,
    ).toBeCloseTo(0.2);
  });
});
