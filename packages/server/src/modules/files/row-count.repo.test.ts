import { like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tags } from '../../db/schema/index.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTag } from '../../test/library-factories.ts';
import { countRows } from './row-count.repo.ts';

const { app } = await createTestApp();
const db = app.ctx.db;

describe('countRows', () => {
  it('counts exactly below the limit and caches larger totals for a while', async () => {
    for (const name of ['a1', 'a2', 'a3', 'b1']) await createTag(db, name);
    expect(await countRows(db, tags, like(tags.name, 'a%'), 10)).toBe(3);
    expect(await countRows(db, tags, like(tags.name, 'a%'), 3)).toBe(3);
    await createTag(db, 'a4');
    // Small totals are always fresh; a total at or over the limit comes from the cache.
    expect(await countRows(db, tags, like(tags.name, 'a%'), 10)).toBe(4);
    expect(await countRows(db, tags, like(tags.name, 'a%'), 3)).toBe(3);
    expect(await countRows(db, tags, undefined, 3)).toBe(5);
  });
});
