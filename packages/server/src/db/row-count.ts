import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ReadCache } from '../platform/read-cache.ts';
import type { Db } from './client.ts';
import type { LibraryPart } from './kept-generations.ts';

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

/** A statement's text and parameters: what identifies a filter when nothing cheaper does. */
const statementKey = ({ sql: text, params }: { sql: string; params: unknown[] }) =>
  `${text}\n${JSON.stringify(params)}`;

/**
 * How a paged list gets its totalItems. Counting 100,000 rows on every page view is what makes long
 * lists slow, and paging or re-sorting a list asks for the same total again and again:
 * - a total kept for this filter is used as it is, and the page query counts nothing;
 * - otherwise the page query carries the count up to `exactLimit` as a column (`column`), and
 *   `of(firstRow)` reads it; at the limit, the whole count runs in a statement of its own.
 * Totals are kept by the count statement's text, or by `opts.key`: a key of the filter the caller
 * builds `where` from, which costs less to make than the statement (a tenth of a millisecond).
 */
export async function pageTotal(
  db: Db,
  totals: ReadCache['totals'],
  table: PgTable,
  where: SQL | undefined,
  opts: { reads: readonly LibraryPart[]; exactLimit?: number; personal?: boolean; key?: string },
) {
  const exactLimit = opts.exactLimit ?? EXACT_COUNT_LIMIT;
  const full = db.select({ total: sql<number>`count(*)::int` }).from(table).where(where);
  // A total of the viewer's own ratings is counted each time (no generation follows them).
  const { value: kept, keep } = opts.personal
    ? { value: undefined, keep: () => {} }
    : await totals.find(opts.key ?? statementKey(full.toSQL()), { exactLimit, reads: opts.reads });

  return {
    /** The total kept for this filter, if any (before the page query runs). */
    kept,

    column:
      kept === undefined ? cappedCount(db, table, where, exactLimit) : sql<number>`${sql.raw(String(kept))}`,

    /**
     * The total, given the page's first row (none when the page is past the end). `exact`: the
     * row's total is a whole count, not one capped at `exactLimit`.
     */
    async of(firstRow: { total: number } | undefined, opts: { exact?: boolean } = {}): Promise<number> {
      if (kept !== undefined) return kept;
      let total = firstRow ? firstRow.total : await countUpTo(db, table, where, exactLimit);
      if (total >= exactLimit && !(firstRow && opts.exact)) [{ total }] = await full;
      keep(total);
      return total;
    },
  };
}
