import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { KeptOrder } from '../platform/read-cache.ts';
import type { Db } from './client.ts';

/** Up to this many matches a total is counted exactly whenever the library has changed. */
export const EXACT_COUNT_LIMIT = 1000;

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
async function countUpTo(db: Db, table: PgTable, where: SQL | undefined, cap: number): Promise<number> {
  const capped = firstMatches(db, table, where, cap).as('capped');
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(capped);
  return total;
}

/**
 * After a change, a long list's total (EXACT_COUNT_LIMIT or more) is counted again at most once a
 * minute: counting 100,000 rows with every change would cost more than a long list's total a minute old.
 */
const LONG_TOTAL_MS = 60_000;

/** What a list's computation knows of its total beforehand: the total (`current`) or a hint of it. */
export interface KnownTotal {
  total: number;
  current: boolean;
}

/**
 * A list's first rows and total computed again (`was`: the kept order they replace, if any; `now`:
 * the app clock). An order that takes its total from the list's counting order (`countedIn`: newest
 * first, kept) is told that total. The counting order is told its old total, as the total itself
 * while a long list's is under a minute old, otherwise as a hint of how many rows match.
 */
export async function recomputedOrder(
  was: KeptOrder | undefined,
  now: number,
  compute: (known: KnownTotal | undefined) => Promise<{ ids: number[]; total: number }>,
  countedIn?: () => Promise<KeptOrder>,
): Promise<KeptOrder> {
  if (countedIn) {
    const { total, countedAt } = await countedIn();
    return { ...(await compute({ total, current: true })), countedAt };
  }
  // A clock moved backwards (tests) counts as old too.
  const reused = !!was && was.total >= EXACT_COUNT_LIMIT && Math.abs(now - was.countedAt) < LONG_TOTAL_MS;
  const { ids, total } = await compute(was && { total: was.total, current: reused });
  return { ids, total, countedAt: reused && was ? was.countedAt : now };
}

/**
 * How a paged list gets its totalItems. Given a total known beforehand (`known`), the page query
 * counts nothing; otherwise it carries the count up to `exactLimit` as a column (`column`), and
 * `of(firstRow)` reads it; at the limit, the whole count runs in a statement of its own.
 */
export function pageTotal(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  known?: number,
  exactLimit = EXACT_COUNT_LIMIT,
) {
  return {
    column:
      known === undefined
        ? cappedCount(db, table, where, exactLimit)
        : sql<number>`${sql.raw(String(known))}`,

    /**
     * The total, given the page's first row (none when the page is past the end). `exact`: the
     * row's total is a whole count, not one capped at `exactLimit`.
     */
    async of(firstRow: { total: number } | undefined, opts: { exact?: boolean } = {}): Promise<number> {
      if (known !== undefined) return known;
      const total = firstRow ? firstRow.total : await countUpTo(db, table, where, exactLimit);
      if (total < exactLimit || (firstRow && opts.exact)) return total;
      const [whole] = await db.select({ total: sql<number>`count(*)::int` }).from(table).where(where);
      return whole.total;
    },
  };
}
