import { like, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';
import { createTag } from '../test/library-factories.ts';
import { EXACT_COUNT_LIMIT, type KnownTotal, pageTotal, recomputedOrder } from './row-count.ts';
import { tags } from './schema/index.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

/** The number of tags matching `where`, as a list without a page counts it. */
const countTags = (where: SQL | undefined, exactLimit?: number) =>
  pageTotal(db, tags, where, undefined, exactLimit).of(undefined);

describe('totals of paged lists', () => {
  it('counts exactly up to the limit, and in full from it', async () => {
    for (const name of ['a1', 'a2', 'a3', 'a4', 'b1']) await createTag(db, name);
    expect(await countTags(like(tags.name, 'b%'), 3)).toBe(1);
    expect(await countTags(like(tags.name, 'a%'), 3)).toBe(4); // at the limit: counted in full
    expect(await countTags(like(tags.name, 'a%'))).toBe(4);
  });

  it('carries the count in the page query, or a total known beforehand instead', async () => {
    const where = like(tags.name, 'b1');
    const pageQuery = (column: SQL<number>) => db.select({ total: column }).from(tags).where(where);
    const counted = pageTotal(db, tags, where);
    expect(pageQuery(counted.column).toSQL().sql).toContain('count(*)');
    const [row] = await pageQuery(counted.column);
    expect(await counted.of(row)).toBe(1);
    const known = pageTotal(db, tags, where, 7);
    expect(pageQuery(known.column).toSQL().sql).not.toContain('count(*)');
    const [kept] = await pageQuery(known.column);
    expect(kept.total).toBe(7);
    expect(await known.of(kept)).toBe(7);
    expect(await known.of(undefined)).toBe(7);
  });
});

describe('a kept order computed again', () => {
  /** Computes an order of `total` rows, telling what it was told of the total. */
  const compute =
    (total: number, told: (KnownTotal | undefined)[]) => async (known: KnownTotal | undefined) => {
      told.push(known);
      return { ids: [1, 2], total: known?.current ? known.total : total };
    };

  it("reuses a long list's total for a minute of the app clock from its count, then counts it again", async () => {
    const told: (KnownTotal | undefined)[] = [];
    const long = EXACT_COUNT_LIMIT + 5;
    const first = await recomputedOrder(undefined, 1_000, compute(long, told));
    expect(first).toEqual({ ids: [1, 2], total: long, countedAt: 1_000 });
    // Changed 59 s later: the total is reused, and stays counted at the first time.
    const second = await recomputedOrder(first, 60_000, compute(long + 1, told));
    expect(second).toEqual({ ids: [1, 2], total: long, countedAt: 1_000 });
    // A minute after its count: counted again.
    const third = await recomputedOrder(second, 61_000, compute(long + 2, told));
    expect(third).toEqual({ ids: [1, 2], total: long + 2, countedAt: 61_000 });
    expect(told).toEqual([undefined, { total: long, current: true }, { total: long, current: false }]);
  });

  it("counts a short list's total again with every change, told the old one as a hint", async () => {
    const told: (KnownTotal | undefined)[] = [];
    const first = await recomputedOrder(undefined, 0, compute(12, told));
    const second = await recomputedOrder(first, 1, compute(13, told));
    expect(second).toEqual({ ids: [1, 2], total: 13, countedAt: 1 });
    expect(told).toEqual([undefined, { total: 12, current: false }]);
  });

  it("takes the total of the list's counting order when given one, and is told it as the total", async () => {
    const told: (KnownTotal | undefined)[] = [];
    const counting = { ids: [9], total: 40, countedAt: 5 };
    const order = await recomputedOrder(undefined, 70_000, compute(12, told), async () => counting);
    expect(order).toEqual({ ids: [1, 2], total: 40, countedAt: 5 });
    expect(told).toEqual([{ total: 40, current: true }]);
  });

  it('counts again after the app clock moved backwards', async () => {
    const told: (KnownTotal | undefined)[] = [];
    const long = EXACT_COUNT_LIMIT;
    const first = await recomputedOrder(undefined, 100_000, compute(long, told));
    expect(await recomputedOrder(first, 30_000, compute(long + 1, told))).toEqual({
      ids: [1, 2],
      total: long + 1,
      countedAt: 30_000,
    });
  });
});
