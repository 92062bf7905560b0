import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** Arbitrary fixed key for pg_try_advisory_xact_lock: one clean-up at a time across processes. */
const CLEANUP_LOCK = 7_261_002;

export function createCleanupRepo(db: Db) {
  return {
    /** Takes the clean-up lock until the surrounding transaction ends; false when another process holds it. */
    async tryLock(): Promise<boolean> {
      // Both drivers (node-postgres, PGlite) answer raw statements as { rows }.
      const { rows } = (await db.execute(
        sql`select pg_try_advisory_xact_lock(${CLEANUP_LOCK}) as locked`,
      )) as {
        rows: { locked: boolean }[];
      };
      return rows[0]?.locked === true;
    },
  };
}
