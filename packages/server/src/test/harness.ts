import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, inject, TestRunner } from 'vitest';
import { type App, type BuildOptions, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, type DatabaseLog, openDatabase } from '../db/client.ts';
import type { Clock } from '../platform/clock.ts';
import type { Mailer, MailMessage } from '../platform/mail.ts';
import { adminQuery, testAdminUrl, testDatabaseUrl } from './postgres-admin.ts';

/**
 * Which database the API tests run on: PGlite by default, PostgreSQL when TEST_DB=postgres (the
 * server-postgres project of vitest.config.ts sets it when TEST_DATABASE_URL is given).
 */
export const testDbKind: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * Skips a suite in the PostgreSQL pass when it runs on the embedded database whatever TEST_DB says
 * (a spawned server or CLI, the embedded database's own behaviour): that pass would only repeat it.
 */
export const embeddedDatabaseOnly = testDbKind === 'postgres';

/**
 * A brand-new empty database (migrated) for one test file, copied from the one the run's global
 * setup migrated (test/global-setup.ts).
 */
export async function freshDatabase(log?: DatabaseLog): Promise<Database> {
  if (testDbKind === 'pglite') {
    const image = new Blob([fs.readFileSync(inject('embeddedImageFile'))]);
    return openDatabase({ pgliteDir: 'memory://', image, log });
  }
  const name = `mesmer_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  const database = await openDatabase({ databaseUrl: testDatabaseUrl(name), pgliteDir: 'memory://', log });
  return {
    ...database,
    async close() {
      await database.close();
      const a = new pg.Client({ connectionString: testAdminUrl() });
      await a.connect();
      // The pool's end() resolves once it has asked its connections to close, not when they
      // have: forcing the drop sooner would end them from the server side mid-goodbye.
      for (let tries = 0; tries < 50; tries++) {
        const open = await a.query('select 1 from pg_stat_activity where datname = $1', [name]);
        if (open.rowCount === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** A clock tests can set and move. */
export class TestClock implements Clock {
  constructor(public current = new Date('2026-06-01T12:00:00Z')) {}
  now() {
    return new Date(this.current);
  }
  set(iso: string) {
    this.current = new Date(iso);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Keeps sent mail in memory so tests can read the links in it. */
export class MemoryMailer implements Mailer {
  sent: MailMessage[] = [];
  async send(m: MailMessage) {
    this.sent.push(m);
  }
  lastTo(to: string) {
    return [...this.sent].reverse().find((m) => m.to === to);
  }
}

export interface TestApp {
  app: App;
  clock: TestClock;
  mailer: MemoryMailer;
  config: Config;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-test-'));
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      // Tests of the limits themselves pass { rateLimit: true }.
      RATE_LIMIT: 'false',
    }),
    ...overrides,
  };
}

/**
 * Builds the app in-process on a fresh database for one test file and closes it
 * after the file. Call at module level of a *.test.ts file. With `logStream`, the app logs
 * there (at LOG_LEVEL, silent unless overridden); otherwise it has no logger.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  { logStream }: Pick<BuildOptions, 'logStream'> = {},
): Promise<TestApp> {
  // Inside a test, the afterAll below would never run: the database would be left behind.
  if (TestRunner.getCurrentTest()) {
    throw new Error('Call createTestApp at the top of a test file or describe block, not inside a test.');
  }
  const config = testConfig(overrides);
  const clock = new TestClock();
  const mailer = new MemoryMailer();
  const database = await freshDatabase();
  const app = await buildApp(config, { database, clock, mailer, logger: logStream !== undefined, logStream });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  });
  return { app, clock, mailer, config };
}
