import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase } from './client.ts';
import { roles } from './schema/index.ts';

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
