import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export function createHealthRepo(db: Db) {
  return {
    /** Answers when the database does; throws when it cannot be reached. */
    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },
  };
}
