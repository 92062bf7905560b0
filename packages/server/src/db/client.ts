import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type HeldLock, LockHeldError, type LockLostError, takeLock } from './embedded-lock.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {}

const CONNECT_TIMEOUT_MS = 3000;

/** The embedded database's buffer cache (decision 027). */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/** Where the pool reports connections PostgreSQL dropped while they sat idle (a pino logger fits). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
}

const stderrLog: DatabaseLog = {
  warn: (details, message) => console.warn(message, details),
};

/** Without a handler (the admin CLI) a lost lock stops the process: it must not write to another's folder. */
function reportLockLost(err: LockLostError) {
  console.error(err.message);
  process.exit(1);
}

/**
 * Takes the embedded database's lock (`<pgliteDir>.pid`), making the folder when missing; throws
 * DatabaseLockedError, saying what to do, while a server (or another command) has it.
 */
export function lockEmbeddedDatabase(
  pgliteDir: string,
  onLost: (err: LockLostError) => void = reportLockLost,
): HeldLock {
  fs.mkdirSync(pgliteDir, { recursive: true });
  try {
    return takeLock(`${pgliteDir}.pid`, onLost);
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    const owner = err.owner ? ` (process ${err.owner.pid} on ${err.owner.host})` : '';
    throw new DatabaseLockedError(
      `The embedded database in ${pgliteDir} is in use by another Mesmer server${owner}. ` +
        'Stop that server first, or give this one its own DATA_DIR.' +
        (err.owner && err.owner.host !== os.hostname()
          ? ` If no server runs on ${err.owner.host} any more, delete ${err.file}.`
          : ''),
    );
  }
}

/**
 * Opens the database and applies the committed migrations.
 * `databaseUrl` set: PostgreSQL. Otherwise PGlite stored under `pgliteDir`
 * (or in memory when `pgliteDir` is 'memory://'), locked to this process (`<pgliteDir>.pid`)
 * because PGlite allows one process.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  pgliteDir: string;
  log?: DatabaseLog;
  /** Called if the embedded database's lock is lost while open; the process should stop. */
  onLockLost?: (err: LockLostError) => void;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // The PostgreSQL driver loads only here: the embedded default never holds it (decision 027).
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    // A request waits at most CONNECT_TIMEOUT_MS for a connection: while PostgreSQL is away it is
    // answered 503 soon (see the app's error handler) rather than held until the client gives up.
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 20,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection that PostgreSQL ends (restart, failover, an administrator) is an error
    // event on the pool, which would end the process unless heard. The pool drops the connection
    // and opens a new one when next needed, so reporting it is all there is to do.
    const log = opts.log ?? stderrLog;
    pool.on('error', (err) => log.warn({ err }, 'PostgreSQL ended an idle connection; it will be replaced'));
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }

  const lock =
    opts.pgliteDir === 'memory://' ? undefined : lockEmbeddedDatabase(opts.pgliteDir, opts.onLockLost);
  let client: PGlite;
  let db: Db;
  try {
    client = await PGlite.create(opts.pgliteDir === 'memory://' ? undefined : opts.pgliteDir, {
      extensions: { pg_trgm },
      // PGlite's default 128 MB of shared buffers is touched at start and stays resident; the
      // embedded database of one community fits far less, and pages beyond it come from the OS cache.
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    });
    await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
  } catch (err) {
    lock?.release();
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    async close() {
      // After the lock is lost the folder may be another server's: write nothing more to it.
      if (lock?.lost) return;
      await client.close();
      lock?.release();
    },
  };
}
