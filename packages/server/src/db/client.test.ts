import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { freshDatabase, testDbKind } from '../test/harness.ts';
import { DatabaseLockedError, openDatabase } from './client.ts';
import { libraryGeneration, roles } from './schema/index.ts';

describe('the embedded database', () => {
  it('keeps data across a close and reopen, and lets only one process open it at a time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-'));
    const first = await openDatabase({ pgliteDir: dir });
    await first.db.execute(sql`insert into roles (name) values ('Listener')`);

    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DatabaseLockedError);
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/in use by another Mesmer server/);

    await first.close();
    const second = await openDatabase({ pgliteDir: dir });
    const found = await second.db.select({ name: roles.name }).from(roles).where(eq(roles.name, 'Listener'));
    expect(found).toEqual([{ name: 'Listener' }]);
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe.skipIf(testDbKind !== 'postgres')('PostgreSQL', () => {
  it('reports a connection PostgreSQL ends while idle and goes on with a new one', async () => {
    const warnings: string[] = [];
    const database = await freshDatabase({ warn: (_details, message) => warnings.push(message) });
    try {
      const [{ name }] = await database.db
        .select({ name: sql<string>`current_database()` })
        .from(libraryGeneration);
      // What a PostgreSQL restart or an administrator does to the pool's idle connection.
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);

      await vi.waitFor(() =>
        expect(warnings).toContain('PostgreSQL ended an idle connection; it will be replaced'),
      );
      const again = await database.db.select({ name: roles.name }).from(roles);
      expect(again).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
