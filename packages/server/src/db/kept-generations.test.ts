import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import type { Database } from './client.ts';
import { GENERATIONS, generatedTriggerNames, installGenerationTriggers } from './kept-generations.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
/** Several statements in one string, as the app's drivers run them (PGlite's `exec`). */
const run = async (statements: string) => {
  const client = (database.db as unknown as { $client: { exec?: (text: string) => Promise<unknown> } })
    .$client;
  return client.exec ? client.exec(statements) : database.db.execute(sql.raw(statements));
};
const query = (text: string) => rowsOf<Record<string, unknown>>(sql.raw(text));
/** The generated triggers present, as `table.name`, sorted. */
const installed = async () =>
  (
    await rowsOf<{ t: string }>(sql`select c.relname || '.' || t.tgname as t from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where not t.tgisinternal and t.tgname like '%\\_bumps\\_%generation'`)
  )
    .map((r) => r.t)
    .sort();

describe('the generated generation triggers', () => {
  it('are installed with the migrations: every declared one, and a row per generation', async () => {
    expect(await installed()).toEqual(
      generatedTriggerNames()
        .map((t) => `${t.table}.${t.name}`)
        .sort(),
    );
    const names = await rowsOf<{ name: string }>(sql`select name from kept_generations order by name`);
    expect(names.map((r) => r.name)).toEqual([...GENERATIONS].sort());
  });

  it('are installed again only when the declaration changed, and drop generated triggers no longer declared', async () => {
    const ran: string[] = [];
    const recording = async (statements: string) => {
      ran.push(statements);
      return run(statements);
    };
    // The installed set carries this declaration's hash: nothing to do.
    await installGenerationTriggers(recording, query);
    expect(ran).toEqual([]);

    // A trigger left from an older declaration, and an installed set of another hash.
    await run(`CREATE TRIGGER "tags_bumps_gone_generation" AFTER INSERT ON "tags"
      FOR EACH STATEMENT EXECUTE FUNCTION "bump_kept_generation"('files')`);
    await run(`COMMENT ON FUNCTION "bump_kept_generation"() IS 'older'`);
    await installGenerationTriggers(recording, query);
    expect(ran).toHaveLength(1);
    expect(await installed()).toEqual(
      generatedTriggerNames()
        .map((t) => `${t.table}.${t.name}`)
        .sort(),
    );
  });
});
