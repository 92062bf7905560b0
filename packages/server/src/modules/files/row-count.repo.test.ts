import { like, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { libraryGeneration, roles, tags } from '../../db/schema/index.ts';
import { createTestApp } from '../../test/harness.ts';
import { createTag } from '../../test/library-factories.ts';
import { countRows, pageTotal } from './row-count.repo.ts';

const { app } = await createTestApp();
const db = app.ctx.db;
const other = (await createTestApp()).app.ctx.db;
/** Any write to a watched table raises the library generation (migration 0001). */
const changeLibrary = (on: Db = db) => on.execute(sql`update tags set name = name where false`);
const generationOf = async (on: Db) => (await on.select().from(libraryGeneration))[0].generation;

describe('totals of paged lists', () => {
  it('counts exactly below the limit whenever the library changed, and keeps larger totals for a minute', async () => {
    for (const name of ['a1', 'a2', 'a3', 'b1']) await createTag(db, name);
    expect(await countRows(db, tags, like(tags.name, 'a%'), 3)).toBe(3); // at the limit: counted in full
    expect(await countRows(db, tags, like(tags.name, 'b%'), 3)).toBe(1);
    await createTag(db, 'a4');
    await createTag(db, 'b2');
    // After the change a small total is counted again; one at or over the limit is kept.
    expect(await countRows(db, tags, like(tags.name, 'b%'), 3)).toBe(2);
    expect(await countRows(db, tags, like(tags.name, 'a%'), 3)).toBe(3);
    expect(await countRows(db, tags, undefined, 3)).toBe(6);
  });

  it('keeps a total while the library is unchanged (roles are not part of it, so adding one changes nothing)', async () => {
    const custom = like(roles.name, 'Custom%');
    expect(await countRows(db, roles, custom)).toBe(0);
    await db.insert(roles).values({ name: 'Custom one' });
    expect(await countRows(db, roles, custom)).toBe(0);
    await changeLibrary();
    expect(await countRows(db, roles, custom)).toBe(1);
  });

  it('puts a kept total in the page query instead of a count', async () => {
    const where = like(tags.name, 'b1');
    const pageQuery = (column: SQL<number>) => db.select({ total: column }).from(tags).where(where);
    const first = await pageTotal(db, tags, where);
    expect(pageQuery(first.column).toSQL().sql).toContain('count(*)');
    const [counted] = await pageQuery(first.column);
    expect(await first.of(counted)).toBe(1);
    const second = await pageTotal(db, tags, where);
    expect(pageQuery(second.column).toSQL().sql).not.toContain('count(*)');
    const [kept] = await pageQuery(second.column);
    expect(await second.of(kept)).toBe(1);
  });

  it('keeps totals apart for two databases at the same generation', async () => {
    await createTag(db, 'only-here');
    while ((await generationOf(other)) < (await generationOf(db))) await changeLibrary(other);
    while ((await generationOf(db)) < (await generationOf(other))) await changeLibrary(db);
    const onlyHere = like(tags.name, 'only-here');
    expect(await countRows(db, tags, onlyHere)).toBe(1);
    expect(await countRows(other, tags, onlyHere)).toBe(0);
  });
});
