import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { embeddedDatabaseOnly, freshDatabase, testDbKind } from '../test/harness.ts';
import { DatabaseLockedError, openDatabase } from './client.ts';
import { LockLostError } from './embedded-lock.ts';
import { keptGenerations, roles } from './schema/index.ts';

describe.skipIf(embeddedDatabaseOnly)('the embedded database', () => {
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

  /** Another process that opens the embedded database in `dir`, writes a row and stays open. */
  async function holderProcess(dir: string) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, '../test/hold-embedded-database.ts'), dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('open') && resolve());
      child.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
    });
    return { child, exited };
  }

  it('opens at once after its owner was killed (kill -9), with what the owner wrote', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-'));
    const dir = path.join(parent, 'db');
    const holder = await holderProcess(dir);
    // Killed right after its lock was last refreshed: the lock's age says nothing about the owner.
    const now = new Date();
    for (const name of fs.readdirSync(parent).filter((n) => n !== 'db')) {
      fs.utimesSync(path.join(parent, name), now, now);
    }
    holder.child.kill('SIGKILL');
    await holder.exited;

    const again = await openDatabase({ pgliteDir: dir });
    const found = await again.db.select({ name: roles.name }).from(roles);
    expect(found).toEqual([{ name: 'Written before the crash' }]);
    await again.close();
    fs.rmSync(parent, { recursive: true, force: true });
  }, 60_000);

  it('is never taken from a live owner, paused (SIGSTOP) however old its lock looks', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-'));
    const dir = path.join(parent, 'db');
    const holder = await holderProcess(dir);
    try {
      holder.child.kill('SIGSTOP');
      // The owner cannot refresh anything while paused; make its lock look a minute old as well.
      const aMinuteAgo = new Date(Date.now() - 60_000);
      for (const name of fs.readdirSync(parent).filter((n) => n !== 'db')) {
        fs.utimesSync(path.join(parent, name), aMinuteAgo, aMinuteAgo);
      }
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(
        `The embedded database in ${dir} is in use by another Mesmer server (process ${holder.child.pid} on ${os.hostname()}).`,
      );
    } finally {
      holder.child.kill('SIGKILL');
      holder.child.kill('SIGCONT');
      await holder.exited;
      fs.rmSync(parent, { recursive: true, force: true });
    }
  }, 60_000);

  it('tells its owner when another process takes the lock, and then writes nothing more', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-db-'));
    const dir = path.join(parent, 'db');
    const lost: Error[] = [];
    const database = await openDatabase({ pgliteDir: dir, onLockLost: (err) => lost.push(err) });
    const lockFile = `${dir}.pid`;
    const another = JSON.stringify({ pid: 1, host: os.hostname(), boot: 'another', token: 'another' });
    fs.writeFileSync(lockFile, another);

    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 10_000 });
    expect(lost[0]).toBeInstanceOf(LockLostError);
    expect(lost[0].message).toBe(
      `${lockFile} no longer names this process: the lock was removed or taken over.`,
    );
    await database.close();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(another);
    fs.rmSync(parent, { recursive: true, force: true });
  }, 30_000);
});

describe.skipIf(testDbKind !== 'postgres')('PostgreSQL', () => {
  it('reports a connection PostgreSQL ends while idle and goes on with a new one', async () => {
    const warnings: string[] = [];
    const database = await freshDatabase({ warn: (_details, message) => warnings.push(message) });
    try {
      const [{ name }] = await database.db
        .select({ name: sql<string>`current_database()` })
        .from(keptGenerations)
        .limit(1);
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
