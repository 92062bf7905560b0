import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type HeldLock, LockHeldError, type LockLostError, takeLock } from './embedded-lock.ts';
import { installGenerationTriggers } from './kept-generations.ts';
import * as schema from './schema/index.ts';

/** The database or one of its transactions: both are a PgDatabase, so a repo takes either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

const dialect = new PgDialect();

/**
 * Runs a raw statement as a named prepared statement: on PostgreSQL each connection parses it once
 * and may keep a plan for it, where `db.execute` has it parsed and planned at every call (the
 * drivers' `{ rows }` answer either way). The text must be the same at every call under one name
 * (values as parameters: arrays rather than lists of parameters); the embedded database runs it as
 * `execute` would.
 */
export const executePrepared = (db: Db, name: string, statement: SQL): Promise<unknown> =>
  db._.session.prepareQuery(dialect.sqlToQuery(statement), undefined, name, false).execute();

/** How many statements that may write were sent to an embedded database (see Database.writes). */
export interface WriteCount {
  readonly count: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * The embedded database's count of statements sent that may write (anything but a plain SELECT,
   * and the end of each transaction); undefined for PostgreSQL. PGlite has one connection, held by
   * this process alone (its lock), and runs statements in the order they are sent: while the count
   * is unchanged, nothing in it has changed since a read sent at that count. PostgreSQL is shared
   * with other processes, so it has no such count.
   */
  writes?: WriteCount;
  close(): Promise<void>;
}

/** Runs `work` in one transaction: the transaction is a Db, so repos take it as they take the database. */
export function withTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx));
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {}

const PLAIN_SELECT = /^\s*select\b/i;
const LOCKING_CLAUSE = /\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b/i;

/** Makes `client` count, in `writes`, the statements sent to it that may write. */
function countWrites(client: PGlite, writes: { count: number }) {
  type Query = PGlite['query'];
  type Exec = PGlite['exec'];
  const counted = <T extends Query | Exec>(send: T): T =>
    ((text: string, ...rest: unknown[]) => {
      if (!PLAIN_SELECT.test(text) || LOCKING_CLAUSE.test(text)) writes.count += 1;
      return (send as (text: string, ...rest: unknown[]) => unknown)(text, ...rest);
    }) as T;
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = counted(query);
  client.exec = counted(exec);
  client.transaction = ((run) =>
    transaction((tx) =>
      run(Object.assign(Object.create(tx), { query: counted(tx.query), exec: counted(tx.exec) })),
    ).finally(() => {
      // Its writes are seen from its COMMIT (or undone by its ROLLBACK): reads sent before then read again.
      writes.count += 1;
    })) as PGlite['transaction'];
}

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
  /** An embedded database in memory starts from this image (see migratedEmbeddedImage). */
  image?: Blob;
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
    // Connections stay open once made (at most `max`): the pool's default closed those idle for 10 s,
    // and the backends of a burst ending together stalled every process on the machine for 100-200 ms
    // (decision 061).
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 20,
      idleTimeoutMillis: 0,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // An idle connection that PostgreSQL ends (restart, failover, an administrator) is an error
    // event on the pool, which would end the process unless heard. The pool drops the connection
    // and opens a new one when next needed, so reporting it is all there is to do.
    const log = opts.log ?? stderrLog;
    pool.on('error', (err) => log.warn({ err }, 'PostgreSQL ended an idle connection; it will be replaced'));
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const db: Db = drizzlePg(pool, { schema });
    await migratePg(db as never, { migrationsFolder });
    await installGenerationTriggers(
      (statements) => pool.query(statements),
      async (query) => (await pool.query(query)).rows,
    );
    return { db, kind: 'postgres', close: () => pool.end() };
  }

  const lock =
    opts.pgliteDir === 'memory://' ? undefined : lockEmbeddedDatabase(opts.pgliteDir, opts.onLockLost);
  let client: PGlite;
  let db: Db;
  const writes = { count: 0 };
  try {
    client = await openEmbedded(opts.pgliteDir === 'memory://' ? undefined : opts.pgliteDir, opts.image);
    countWrites(client, writes);
    db = drizzlePglite(client, { schema });
  } catch (err) {
    lock?.release();
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    writes,
    async close() {
      // After the lock is lost the folder may be another server's: write nothing more to it.
      if (lock?.lost) return;
      await client.close();
      lock?.release();
    },
  };
}

/** A PGlite in `dir` (or in memory), from `image` when given, with the extension and every migration applied. */
async function openEmbedded(dir: string | undefined, image?: Blob): Promise<PGlite> {
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    loadDataDir: image,
    // PGlite's default 128 MB of shared buffers is touched at start and stays resident; the
    // embedded database of one community fits far less, and pages beyond it come from the OS cache.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  await client.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await migratePglite(drizzlePglite(client) as never, { migrationsFolder });
  await installGenerationTriggers(
    (statements) => client.exec(statements),
    async (query) => (await client.query<Record<string, unknown>>(query)).rows,
  );
  return client;
}

/**
 * An empty embedded database with every migration applied, as a data-folder image. The test
 * harness starts each file's in-memory database from it: a second, not the two of a new one.
 */
export async function migratedEmbeddedImage(): Promise<Blob> {
  const client = await openEmbedded(undefined);
  try {
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
