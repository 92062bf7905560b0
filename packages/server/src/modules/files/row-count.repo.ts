import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';

/** Up to this many matches a total is counted exactly on every request. */
export const EXACT_COUNT_LIMIT = 1000;
/** Larger totals (long lists, common words) are counted once a minute per filter and process. */
const LARGE_COUNT_TTL_MS = 60_000;
const MAX_CACHED_COUNTS = 500;
const largeCounts = new Map<string, { total: number; countedAt: number }>();

/** The first `cap` rows matching `where` (a row of 1 each): what a capped count counts. */
function firstMatches(db: Db, table: PgTable, where: SQL | undefined, cap: number) {
  return db
    .select({ one: sql`1`.as('one') })
    .from(table)
    .where(where)
    .limit(cap);
}

/**
 * `count(*)` of the rows matching `where`, counting no further than `cap`, as a scalar subquery.
 * Used as a column of a page query it costs no extra round trip: it does not depend on the
 * row, so PostgreSQL runs it once per statement.
 */
export function cappedCount(db: Db, table: PgTable, where: SQL | undefined, cap = EXACT_COUNT_LIMIT) {
  return sql<number>`(select count(*)::int from ${firstMatches(db, table, where, cap)} as capped)`;
}

/** The number of matching rows, counting no further than `cap`. */
export async function countUpTo(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  cap: number,
): Promise<number> {
  const capped = firstMatches(db, table, where, cap).as('capped');
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(capped);
  return total;
}

/** The exact total of a long list: counted once a minute per filter (see countRows). */
async function largeCount(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const full = db.select({ total: sql<number>`count(*)::int` }).from(table).where(where);
  const { sql: text, params } = full.toSQL();
  const key = `${text}\n${JSON.stringify(params)}`;
  const cached = largeCounts.get(key);
  if (cached && Date.now() - cached.countedAt < LARGE_COUNT_TTL_MS) return cached.total;
  const [{ total }] = await full;
  largeCounts.delete(key);
  largeCounts.set(key, { total, countedAt: Date.now() });
  if (largeCounts.size > MAX_CACHED_COUNTS) largeCounts.delete(largeCounts.keys().next().value as string);
  return total;
}

/**
 * The number of rows of `table` matching `where`, for paged lists' totalItems.
 * Counting 100,000 rows on every page view is what makes long lists slow, and a
 * paginator of more than 50 pages does not need the rows added in the last minute.
 */
export async function countRows(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  exactLimit = EXACT_COUNT_LIMIT,
): Promise<number> {
  const upTo = await countUpTo(db, table, where, exactLimit);
  if (upTo < exactLimit) return upTo;
  return largeCount(db, table, where);
}

/**
 * countRows for a page whose rows carried `cappedCount(db, table, where)` as a column:
 * no query when the total is small, none either while a large one is cached.
 * An empty page (an offset past the end) carries nothing, so it counts on its own.
 */
export async function totalOfPage(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  firstRow: { total: number } | undefined,
): Promise<number> {
  if (!firstRow) return countRows(db, table, where);
  if (firstRow.total < EXACT_COUNT_LIMIT) return firstRow.total;
  return largeCount(db, table, where);
}
