import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, testDbKind } from '../test/harness.ts';
import type { Database } from './client.ts';
import { createGenerationsReader } from './library-generation.ts';
import { keptGenerations } from './schema/index.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe.runIf(testDbKind === 'pglite')('statements that may write, on the embedded database', () => {
  const count = () => database.writes?.count ?? Number.NaN;
  /** Sends `text` past the count, as nothing in the app can: to show what a kept read would miss. */
  const uncounted = (text: string) => {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    return Object.getPrototypeOf(client).query.call(client, text);
  };

  it('counts every statement but a plain select, and the end of each transaction', async () => {
    const before = count();
    await database.db.select().from(keptGenerations);
    await database.db.execute(sql`  SELECT 1`);
    expect(count()).toBe(before);

    await database.db.execute(sql`select generation from kept_generations for update`);
    expect(count()).toBe(before + 1);
    await database.db.execute(sql`with g as (select 1) select * from g`);
    expect(count()).toBe(before + 2);
    await database.db.update(keptGenerations).set({ generation: sql`generation` });
    expect(count()).toBe(before + 3);

    await database.db.transaction(async (tx) => {
      await tx.select().from(keptGenerations);
    });
    expect(count()).toBe(before + 4);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(keptGenerations).set({ generation: sql`generation` });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(count()).toBe(before + 6);
  });

  it('reads the generations again only after a statement that may write', async () => {
    const readGenerations = createGenerationsReader(database);
    const { files, sessions: session } = await readGenerations();

    await uncounted(`update kept_generations set generation = generation + 1 where name = 'files'`);
    await uncounted(`update kept_generations set generation = generation + 1 where name = 'sessions'`);
    // Nothing this process sent could have changed them: the answers kept are given again.
    expect((await readGenerations()).files).toBe(files);
    expect((await readGenerations()).sessions).toBe(session);

    // Any counted write sends the reads again, and they see everything up to it.
    await database.db.execute(
      sql`update kept_generations set generation = generation + 1 where name = 'files'`,
    );
    expect((await readGenerations()).files).toBe(files + 2);
    expect((await readGenerations()).sessions).toBe(session + 1);
  });
});

describe.runIf(testDbKind === 'postgres')('statements that may write, on PostgreSQL', () => {
  it('are not counted: other processes write to it too, so every read goes to it', () => {
    expect(database.writes).toBeUndefined();
  });
});
