import { and, eq, like, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../test/factories.ts';
import { createTestApp } from '../test/harness.ts';
import { createPlaylist, createTag, ratePlaylist } from '../test/library-factories.ts';
import type { Db } from './client.ts';
import type { LibraryPart } from './kept-generations.ts';
import { pageTotal } from './row-count.ts';
import { playlistRatings, roles, tags } from './schema/index.ts';

const { app, clock } = await createTestApp();
const db = app.ctx.db;
const totals = app.ctx.readCache.totals;
const { app: other } = await createTestApp();
/** Any write to tags raises the files generation (db/kept-generations.ts). */
const changeLibrary = () => db.execute(sql`update tags set name = name where false`);
const READS_FILES: LibraryPart[] = ['files'];

/** The number of rows of `table` matching `where`, as a list without a page counts it. */
async function countRows(
  database: Db,
  kept: typeof totals,
  table: Parameters<typeof pageTotal>[2],
  where: SQL | undefined,
  exactLimit?: number,
): Promise<number> {
  return (await pageTotal(database, kept, table, where, { exactLimit, reads: READS_FILES })).of(undefined);
}

describe('totals of paged lists', () => {
  it('counts exactly below the limit whenever the library changed, and keeps larger totals for a minute of the app clock', async () => {
    for (const name of ['a1', 'a2', 'a3', 'b1']) await createTag(db, name);
    expect(await countRows(db, totals, tags, like(tags.name, 'a%'), 3)).toBe(3); // at the limit: counted in full
    expect(await countRows(db, totals, tags, like(tags.name, 'b%'), 3)).toBe(1);
    await createTag(db, 'a4');
    await createTag(db, 'b2');
    // After the change a small total is counted again; one at or over the limit is kept.
    expect(await countRows(db, totals, tags, like(tags.name, 'b%'), 3)).toBe(2);
    expect(await countRows(db, totals, tags, like(tags.name, 'a%'), 3)).toBe(3);
    expect(await countRows(db, totals, tags, undefined, 3)).toBe(6);
    // A minute on the app's clock (not the machine's) later, the larger total is counted again.
    clock.advance(59_000);
    expect(await countRows(db, totals, tags, like(tags.name, 'a%'), 3)).toBe(3);
    clock.advance(1_000);
    expect(await countRows(db, totals, tags, like(tags.name, 'a%'), 3)).toBe(4);
  });

  it('keeps a total while the files part of the library is unchanged (roles are not part of it, so adding one changes nothing)', async () => {
    const custom = like(roles.name, 'Custom%');
    expect(await countRows(db, totals, roles, custom)).toBe(0);
    await db.insert(roles).values({ name: 'Custom one' });
    expect(await countRows(db, totals, roles, custom)).toBe(0);
    await changeLibrary();
    expect(await countRows(db, totals, roles, custom)).toBe(1);
  });

  it('puts a kept total in the page query instead of a count', async () => {
    const where = like(tags.name, 'b1');
    const pageQuery = (column: SQL<number>) => db.select({ total: column }).from(tags).where(where);
    const first = await pageTotal(db, totals, tags, where, { reads: READS_FILES });
    expect(pageQuery(first.column).toSQL().sql).toContain('count(*)');
    const [counted] = await pageQuery(first.column);
    expect(await first.of(counted)).toBe(1);
    const second = await pageTotal(db, totals, tags, where, { reads: READS_FILES });
    expect(pageQuery(second.column).toSQL().sql).not.toContain('count(*)');
    const [kept] = await pageQuery(second.column);
    expect(await second.of(kept)).toBe(1);
  });

  it("counts a total of the viewer's own ratings each time: nothing follows them", async () => {
    const [viewer, someone] = [await createUser(db), await createUser(db)];
    const [first, second] = [
      await createPlaylist(db, { creatorId: someone.id }),
      await createPlaylist(db, { creatorId: someone.id }),
    ];
    await ratePlaylist(db, first.id, viewer.id, { favorite: true });
    const favourites = and(eq(playlistRatings.userId, viewer.id), eq(playlistRatings.favorite, true));
    const total = async () => {
      const t = await pageTotal(db, totals, playlistRatings, favourites, {
        personal: true,
        reads: ['playlists'],
      });
      const counts = db.select({ total: t.column }).from(playlistRatings).toSQL().sql.includes('count(*)');
      return { counts, total: await t.of(undefined) };
    };
    expect(await total()).toEqual({ counts: true, total: 1 });
    expect(await total()).toEqual({ counts: true, total: 1 });
    await ratePlaylist(db, second.id, viewer.id, { favorite: true });
    expect(await total()).toEqual({ counts: true, total: 2 });
  });

  it('keeps totals per app: another app on another database counts its own', async () => {
    await createTag(db, 'only-here');
    const onlyHere = like(tags.name, 'only-here');
    expect(await countRows(db, totals, tags, onlyHere)).toBe(1);
    expect(await countRows(other.ctx.db, other.ctx.readCache.totals, tags, onlyHere)).toBe(0);
  });
});
